import Foundation

/// The child processes of a proof: this test binary run again (``LedgerFixtures/startChild(test:environment:log:)``),
/// each with its output in a file of `folder`. ``stopAll()`` kills (SIGKILL) those still running,
/// so a failing test leaves none behind.
final class ProofChildren {
    /// One child process.
    struct Child {
        let name: String
        let process: Process
        let output: URL

        /// What the child wrote to stdout and stderr (the test runner's report).
        func outputText() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        /// Whether it exited on its own with status 0.
        var succeeded: Bool { process.terminationReason == .exit && process.terminationStatus == 0 }
    }

    let folder: URL
    private(set) var all: [Child] = []

    init(folder: URL) { self.folder = folder }

    /// Starts the child test `test` with `environment`.
    @discardableResult
    func start(_ name: String, test: String, environment: [String: String]) throws -> Child {
        let output = folder.appendingPathComponent(name + ".out")
        let started = try LedgerFixtures.startChild(test: test, environment: environment, log: output)
        let child = Child(name: name, process: started.process, output: output)
        all.append(child)
        return child
    }

    /// Kills `child` with SIGKILL (if it still runs) and waits for it.
    func kill(_ child: Child) {
        if child.process.isRunning { Foundation.kill(child.process.processIdentifier, SIGKILL) }
        child.process.waitUntilExit()
    }

    /// Kills every child still running, and waits for each.
    func stopAll() {
        for child in all { kill(child) }
    }

    /// Calls `condition` every 5 ms until it is true (returns `true`) or `seconds` have passed
    /// (returns `false`): a guard against a hang, never a measure of speed.
    static func poll(upTo seconds: TimeInterval, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return try condition()
    }
}
