import Foundation

/// Runs the independent tools the interop tests compare OfferKit against (Python with its
/// verifiers, the `openssl` CLI), for every test target.
public enum ExternalProcess {
    /// How a run ended and what the tool wrote.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Runs `executable`, found on `PATH` through `/usr/bin/env`, with `arguments` and `stdin` as
    /// its standard input (none when `nil`), and waits for it to end. Output goes through files,
    /// so that nothing can block however much the tool writes.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offerkit-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out")
        let errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let inURL = folder.appendingPathComponent("in")
            try stdin.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
}
