import Foundation
import Testing

/// A long-running `offerkit serve` started by a test: stdout and stderr go to files that the test
/// reads while it runs. A watchdog kills it after 180 s so that a hung server cannot hang the suite
/// (a safety net, not an assertion on time).
final class ServerProcess: @unchecked Sendable {
    let arguments: [String]
    private let process = Process()
    private let folder: TempDir
    private let outURL: URL
    private let errURL: URL

    /// Starts `offerkit arguments…` with `environment` added to the cleaned environment (see ``CLI``).
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard let binary = CLI.binary else {
            throw CLIRunnerError(description: "the offerkit executable was not found; build it first")
        }
        self.arguments = arguments
        folder = try TempDir.make()
        outURL = folder.url.appendingPathComponent("stdout")
        errURL = folder.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = CLI.packageRoot
        process.environment = CLI.environment(adding: environment)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let process = self.process
        DispatchQueue.global().asyncAfter(deadline: .now() + 180) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        folder.remove()
    }

    var stderr: String { String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self) }
    var stdout: String { String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self) }
    var isRunning: Bool { process.isRunning }

    /// Waits until a line of stderr contains `text` and returns it.
    /// - Throws: when the process exits first (or after 120 s, a safety net).
    func waitForStderrLine(containing text: String) throws -> String {
        try waitUntil("a stderr line containing \(text)") {
            stderr.split(separator: "\n").first { $0.contains(text) }.map(String.init)
        }
    }

    /// Polls `condition` every 20 ms until it yields a value.
    /// - Throws: when the process exits before (the condition is checked once more then), or after
    ///   120 s (a safety net).
    func waitUntil<T>(_ what: String, _ condition: () -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if let value = condition() { return value }
            if !process.isRunning {
                if let value = condition() { return value }
                throw CLIRunnerError(description: "offerkit exited before \(what)\n\(result())")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw CLIRunnerError(description: "gave up waiting for \(what) after 120 s\n\(result())")
    }

    /// Sends SIGTERM.
    func terminate() { kill(process.processIdentifier, SIGTERM) }

    /// Waits for the process to exit and returns what it did; its output is scanned for key material.
    @discardableResult
    func waitForExit() -> CLIResult {
        process.waitUntilExit()
        let run = result()
        OutputLog.shared.record(run)
        return run
    }

    /// The output so far, with the exit status once it has exited (-1 before). A signal that
    /// ended it shows as 128 + the signal's number.
    func result() -> CLIResult {
        var status: Int32 = -1
        if !process.isRunning {
            status =
                process.terminationReason == .uncaughtSignal
                ? 128 + process.terminationStatus : process.terminationStatus
        }
        return CLIResult(arguments: arguments, status: status, stdout: stdout, stderr: stderr)
    }
}
