import CLIUnderTest
import Foundation
import InteropSupport
import OfferKitCLI
import OfferKitSigningCLI
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

/// Runs `offerkit` with a controlled environment: in this process (``CommandContext``), or as a
/// subprocess awaited without holding a thread (``ChildProcess``).
///
/// In-process, the command runs through `EntryPoint.run(_:context:)` with stdin, stdout and stderr on
/// files of its own and the environment the child would get, on a ``CommandThread`` of its own: what
/// a process would print and exit with, without starting one. A run is a process when its suite or
/// test asks for one (``ProcessRuns``, `.processRuns`: exit statuses, FIFOs and stdin, processes
/// racing on one ledger), and whenever in-process could differ: another working directory, a
/// peak-memory measurement, `serve` (it takes the process's signals over), or an argument naming
/// this process's own stdin or descriptors (`/dev/stdin`, `/dev/fd/N`, `/proc/self`).
/// `OFFERKIT_TEST_CLI_PROCESS=1` makes every run a process.
///
/// A process is this test binary started as the CLI (``CLIUnderTest/executable``): the CLI built with
/// the tests, never a separately built binary. The environment is this process's environment without
/// any `OFFERKIT_*` variable, plus what the test passes. stdout and stderr go to files (no pipe can
/// fill up), and every run's output is kept in ``OutputLog`` for the private-key scan.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `offerkit` the tests run.
    static var binary: URL { CLIUnderTest.executable }

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
    ///   - executable: the `offerkit` to run: ``binary`` (every command), or the one with the sign
    ///     commands only (``CLIUnderTest/signingOnlyExecutable``).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil, cwd: URL? = nil,
        peakMemory: Bool = false, executable: URL = binary
    ) async throws -> CLIResult {
        if !processRuns, !peakMemory, !everyRunIsAProcess,
            (cwd ?? packageRoot).standardizedFileURL.path == currentDirectory,
            arguments.first != "serve",
            !arguments.contains(where: {
                $0.contains("/dev/stdin") || $0.contains("/dev/fd/") || $0.contains("/proc/self")
            })
        {
            if executable == binary {
                return try await runInProcess(arguments, environment: environment, stdin: stdin) {
                    await EntryPoint.run(arguments, context: $0)
                }
            }
            if executable == CLIUnderTest.signingOnlyExecutable {
                return try await runInProcess(arguments, environment: environment, stdin: stdin) {
                    await SigningEntryPoint.run(arguments, context: $0)
                }
            }
        }
        let peakFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offerkit-peak-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: peakFile) }
        let child = try ChildProcess(
            URL(fileURLWithPath: peakMemory ? "/usr/bin/time" : executable.path),
            peakMemory ? ["-f", "%M", "-o", peakFile.path, executable.path] + arguments : arguments,
            environment: Self.environment(adding: environment), currentDirectory: cwd ?? packageRoot,
            stdin: stdin.map { .data($0) } ?? .none, watchdog: 120)
        let ending = await child.ending()
        var stderr = child.stderr
        if child.watchdogFired { stderr += "\n[test runner: offerkit did not finish within 120 s and was killed]" }
        let peak = peakMemory ? (try? String(contentsOf: peakFile, encoding: .utf8)) : nil
        let result = CLIResult(
            arguments: arguments, status: ending.rawStatus, stdout: child.stdout, stderr: stderr,
            peakKilobytes: peak.flatMap { Int($0.split(separator: "\n").last ?? "") })
        OutputLog.shared.record(result)
        return result
    }

    /// Whether the runs of this task are processes (``ProcessRuns``).
    @TaskLocal static var processRuns = false

    /// `OFFERKIT_TEST_CLI_PROCESS=1`: every run is a process, as before commands could run in-process.
    private static let everyRunIsAProcess = ProcessInfo.processInfo.environment["OFFERKIT_TEST_CLI_PROCESS"] == "1"

    /// This process's working directory, where an in-process command runs: the package root under
    /// `swift test`, where a run without `cwd` runs.
    private static let currentDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        .standardizedFileURL.path

    /// Runs `command` in this process with a ``CommandContext`` of files of its own: stdin holds `stdin`
    /// (empty, as `/dev/null`, when nil), stdout and stderr are read back once it returns. A run that
    /// has not returned within 120 s fails its test as a process's watchdog would (it cannot be
    /// killed: its files are left to it, and its thread runs on).
    private static func runInProcess(
        _ arguments: [String], environment: [String: String], stdin: Data?,
        _ command: @escaping @Sendable (CommandContext) async -> Int32
    ) async throws -> CLIResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let input = folder.appendingPathComponent("stdin")
        let output = folder.appendingPathComponent("stdout")
        let error = folder.appendingPathComponent("stderr")
        try (stdin ?? Data()).write(to: input)
        let descriptors = [
            open(input.path, O_RDONLY | O_CLOEXEC),
            open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600),
            open(error.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600),
        ]
        func release() {
            for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
            try? FileManager.default.removeItem(at: folder)
        }
        guard descriptors.allSatisfy({ $0 >= 0 }) else {
            release()
            throw CLIRunnerError(description: "cannot open the files of an in-process run in \(folder.path)")
        }
        let context = CommandContext(
            standardInput: descriptors[0], standardOutput: descriptors[1], standardError: descriptors[2],
            environment: Self.environment(adding: environment))
        let status = await withinWatchdog(seconds: 120) { await CommandThread.run { await command(context) } }
        let read = { (file: URL) in String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self) }
        let result = CLIResult(
            arguments: arguments, status: status ?? -1, stdout: read(output),
            stderr: read(error)
                + (status == nil ? "\n[test runner: offerkit did not finish within 120 s in-process; it runs on]" : ""))
        if status != nil { release() }
        OutputLog.shared.record(result)
        return result
    }

    /// What `body` returns, or nil once `seconds` have passed without it (`body` runs on regardless).
    private static func withinWatchdog(
        seconds: Int, _ body: @escaping @Sendable () async -> Int32
    ) async -> Int32? {
        /// The continuation, resumed by whichever comes first.
        final class Answer: Sendable {
            let continuation = Mutex<CheckedContinuation<Int32?, Never>?>(nil)
        }
        let answer = Answer()
        let resume = { @Sendable (value: Int32?) in
            answer.continuation.withLock { $0.take() }?.resume(returning: value)
        }
        return await withCheckedContinuation { continuation in
            answer.continuation.withLock { $0 = continuation }
            let watchdog = Task {
                try? await Task.sleep(for: .seconds(seconds))
                if !Task.isCancelled { resume(nil) }
            }
            Task {
                let status = await body()
                watchdog.cancel()
                resume(status)
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
