import Foundation
import InteropSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A long-running `offerkit serve` started by a test: stdout and stderr go to files that the test
/// reads while it runs. It is killed after 180 s so that a hung server cannot hang the suite (a safety
/// net, not an assertion on time). Its output is scanned for key material (``OutputLog``) when the test
/// waits for its end, or else when the test lets go of it (`defer { server.terminate() }`).
final class ServerProcess: @unchecked Sendable {
    let arguments: [String]
    private let child: ChildProcess
    private let lock = NSLock()
    private var recorded = false

    /// Starts `offerkit arguments…` with `environment` added to the cleaned environment (see ``CLI``).
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        self.arguments = arguments
        child = try ChildProcess(
            CLI.binary, arguments, environment: CLI.environment(adding: environment),
            currentDirectory: CLI.packageRoot, watchdog: 180)
    }

    deinit {
        if !lock.withLock({ recorded }) { OutputLog.shared.record(result()) }
    }

    var stderr: String { child.stderr }
    var stdout: String { child.stdout }
    var isRunning: Bool { child.isRunning }

    /// Waits until a line of stderr contains `text` and returns it.
    /// - Throws: when the process exits first (or after 120 s, a safety net).
    func waitForStderrLine(containing text: String) async throws -> String {
        try await waitUntil("a stderr line containing \(text)") {
            stderr.split(separator: "\n").first { $0.contains(text) }.map(String.init)
        }
    }

    /// Polls `condition` every 20 ms (sleeping with `Task.sleep`) until it yields a value.
    /// - Throws: when the process exits before (the condition is checked once more then), or after
    ///   120 s (a safety net).
    func waitUntil<T>(_ what: String, _ condition: () -> T?) async throws -> T {
        var value: T?
        _ = await child.poll(upTo: 120, every: 0.02) {
            value = condition()
            return value != nil
        }
        if let value { return value }
        if !isRunning { throw CLIRunnerError(description: "offerkit exited before \(what)\n\(result())") }
        throw CLIRunnerError(description: "gave up waiting for \(what) after 120 s\n\(result())")
    }

    /// Sends SIGTERM.
    func terminate() { child.send(SIGTERM) }

    /// Sends SIGKILL and waits for the end (its output is scanned as after ``waitForExit()``).
    @discardableResult
    func kill() async -> CLIResult {
        child.send(SIGKILL)
        return await waitForExit()
    }

    /// Waits for the process to exit and returns what it did; its output is scanned for key material.
    @discardableResult
    func waitForExit() async -> CLIResult {
        await child.ending()
        let run = result()
        lock.withLock { recorded = true }
        OutputLog.shared.record(run)
        return run
    }

    /// The output so far, with the exit status once it has exited (-1 before). A signal that
    /// ended it shows as 128 + the signal's number.
    func result() -> CLIResult {
        CLIResult(arguments: arguments, status: child.ended?.shellStatus ?? -1, stdout: stdout, stderr: stderr)
    }
}
