import Foundation
import Testing

/// What one run of the `offerkit` executable produced.
struct CLIResult: Sendable, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    let stdout: String
    let stderr: String
    /// The child's peak resident size in kilobytes, when it ran under GNU time (`peakMemory: true`).
    var peakKilobytes: Int? = nil

    var description: String {
        "offerkit \(arguments.joined(separator: " ")) -> exit \(status)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)"
    }

    /// stdout without its trailing newline.
    var output: String {
        var text = stdout
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }

    /// stdout parsed as one JSON object (nil when it is not one).
    var json: JSON? {
        guard let value = JSON.parse(stdout), value.object != nil else { return nil }
        return value
    }

    /// stdout as JSON Lines, one value per non-empty line (nil entries for lines that do not parse).
    var jsonLines: [JSON?] {
        stdout.split(separator: "\n", omittingEmptySubsequences: true).map { JSON.parse($0) }
    }
}

struct CLIRunnerError: Error, CustomStringConvertible {
    let description: String
}

/// Runs the built `offerkit` executable as a subprocess with a controlled environment.
///
/// The binary is `OFFERKIT_BINARY`, else `offerkit` next to the test bundle's executable, else
/// `<packageRoot>/.build/debug/offerkit`. The environment is this process's environment without
/// any `OFFERKIT_*` variable, plus what the test passes. stdout and stderr go to files (no pipe
/// can fill up), and every run's output is kept in ``OutputLog`` for the private-key scan.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let binaryCandidates: [URL] = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["OFFERKIT_BINARY"], !path.isEmpty {
            candidates.append(URL(fileURLWithPath: path))
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("offerkit"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/offerkit"))
        return candidates
    }()

    /// The first candidate that exists (when `OFFERKIT_BINARY` is set, only that one counts).
    static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["OFFERKIT_BINARY"], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
        }
        return binaryCandidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Where run outputs are spooled; removed file by file after each run.
    private static let spool: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offerkit-cli-runs-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// This process's environment without `OFFERKIT_*`, plus the test PostgreSQL server's password
    /// in `PGPASSWORD` (see ``CLIPostgres``), plus `extra`.
    static func environment(adding extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OFFERKIT_") }
        if let password = CLIPostgres.password { environment["PGPASSWORD"] = password }
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Whether GNU time is installed, so that ``run(_:environment:stdin:cwd:peakMemory:)`` can
    /// measure a run's peak memory.
    static let peakMemoryMeasurable = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

    /// Runs `offerkit arguments…`.
    /// - Parameters:
    ///   - environment: variables added to the cleaned environment.
    ///   - stdin: bytes on standard input; `/dev/null` when nil.
    ///   - cwd: the working directory; the package root when nil.
    ///   - peakMemory: run under GNU time (`/usr/bin/time`, ``peakMemoryMeasurable``) and report the
    ///     peak resident size in ``CLIResult/peakKilobytes``: a resource bound, never a timed one.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil, cwd: URL? = nil,
        peakMemory: Bool = false
    ) throws -> CLIResult {
        guard let binary else {
            throw CLIRunnerError(
                description: "the offerkit executable was not found (looked at "
                    + binaryCandidates.map(\.path).joined(separator: ", ")
                    + "); build it with `swift build --product offerkit` or set OFFERKIT_BINARY")
        }
        let name = UUID().uuidString
        let outURL = spool.appendingPathComponent("\(name).out")
        let errURL = spool.appendingPathComponent("\(name).err")
        let inURL = spool.appendingPathComponent("\(name).in")
        let peakURL = spool.appendingPathComponent("\(name).peak")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            for url in [outURL, errURL, inURL, peakURL] { try? FileManager.default.removeItem(at: url) }
        }
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        var inHandle: FileHandle?
        if let stdin {
            try stdin.write(to: inURL)
            inHandle = try FileHandle(forReadingFrom: inURL)
        }

        let process = Process()
        if peakMemory {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments = ["-f", "%M", "-o", peakURL.path, binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = cwd ?? packageRoot
        process.environment = Self.environment(adding: environment)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = inHandle ?? FileHandle.nullDevice
        try process.run()
        let watchdog = Watchdog(process: process)
        watchdog.arm(seconds: 120)
        process.waitUntilExit()
        try? outHandle.close()
        try? errHandle.close()
        try? inHandle?.close()

        let stdout = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        var stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        if watchdog.fired { stderr += "\n[test runner: offerkit did not finish within 120 s and was terminated]" }
        let peak = peakMemory ? (try? String(contentsOf: peakURL, encoding: .utf8)) : nil
        let result = CLIResult(
            arguments: arguments, status: process.terminationStatus, stdout: stdout, stderr: stderr,
            peakKilobytes: peak.flatMap { Int($0.split(separator: "\n").last ?? "") })
        OutputLog.shared.record(result)
        return result
    }
}

/// Terminates a hung child so the suite cannot hang (a safety net, not an assertion on time).
private final class Watchdog: @unchecked Sendable {
    private let process: Process
    private let lock = NSLock()
    private var didFire = false

    init(process: Process) {
        self.process = process
    }

    var fired: Bool { lock.withLock { didFire } }

    func arm(seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            if process.isRunning {
                lock.withLock { didFire = true }
                process.terminate()
            }
        }
    }
}

/// A parsed JSON value (Foundation's `JSONDecoder`, independent of the library's parser).
enum JSON: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    /// Parses `text` (surrounding whitespace allowed); nil when it is not JSON.
    static func parse(_ text: some StringProtocol) -> JSON? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return try? JSONDecoder().decode(JSON.self, from: Data(trimmed.utf8))
    }

    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    subscript(index: Int) -> JSON? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var int: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var array: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var object: [String: JSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    var keys: Set<String> { Set(object?.keys.map { $0 } ?? []) }
}
