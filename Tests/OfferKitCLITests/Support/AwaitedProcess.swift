import Foundation

/// Runs a tool (Python, git) and awaits its end without blocking a thread: the process's
/// termination handler resumes the waiting task. Output goes through files, so that nothing can
/// block however much the tool writes.
enum AwaitedProcess {
    struct Result: Sendable, CustomStringConvertible {
        let status: Int32
        let stdout: Data
        let stderr: String

        var description: String {
            "exit \(status)\n--- stdout:\n\(String(decoding: stdout, as: UTF8.self))\n--- stderr:\n\(stderr)"
        }
    }

    /// Runs `executable`, found on `PATH` through `/usr/bin/env`, with `arguments` in `folder`
    /// (the current one when `nil`).
    static func run(_ executable: String, _ arguments: [String], in folder: URL? = nil) async throws -> Result {
        let spool = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-awaited-\(UUID())")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: spool) }
        let outURL = spool.appendingPathComponent("out")
        let errURL = spool.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        if let folder { process.currentDirectoryURL = folder }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return Result(
            status: status, stdout: (try? Data(contentsOf: outURL)) ?? Data(),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
}
