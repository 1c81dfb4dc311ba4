import Foundation
import InteropSupport

/// Runs a tool (Python, git) in a folder and awaits its end without blocking a thread
/// (``ChildProcess``). Output goes through files, so that nothing can block however much the tool
/// writes.
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
        let child = try ChildProcess(command: executable, arguments, currentDirectory: folder)
        let ending = await child.ending()
        return Result(status: ending.rawStatus, stdout: child.stdoutData, stderr: child.stderr)
    }
}
