import Foundation
import InteropSupport

@testable import LedgerTestSupport

/// The child processes of a proof: this test binary run again (``LedgerFixtures/startChild(test:environment:)``),
/// each with its output in a file of its own. ``stopAll()`` kills (SIGKILL) those still running,
/// so a failing test leaves none behind.
final class ProofChildren {
    /// One child process.
    struct Child {
        let name: String
        /// The child, awaited without holding a thread (``ChildProcess``).
        let process: ChildProcess

        /// What the child wrote to stdout and stderr (the test runner's report).
        func outputText() -> String { process.stdout }

        /// Whether it exited on its own with status 0.
        var succeeded: Bool { process.ended == .exited(0) }
    }

    let folder: URL
    private(set) var all: [Child] = []

    init(folder: URL) { self.folder = folder }

    /// Starts the child test `test` with `environment`.
    @discardableResult
    func start(_ name: String, test: String, environment: [String: String]) throws -> Child {
        let started = try LedgerFixtures.startChild(test: test, environment: environment)
        let child = Child(name: name, process: started.process)
        all.append(child)
        return child
    }

    /// Sends `child` SIGKILL (if it still runs); ``stopAllAndWait()`` waits for it.
    func kill(_ child: Child) {
        child.process.send(SIGKILL)
    }

    /// Kills every child still running, without waiting (for `defer`).
    func stopAll() {
        for child in all { kill(child) }
    }

    /// Kills every child still running, and waits for each to end.
    func stopAllAndWait() async {
        for child in all { await child.process.kill() }
    }

    /// Calls `condition` every 5 ms (sleeping with `Task.sleep`) until it is true (returns `true`)
    /// or `seconds` have passed (returns `false`): a guard against a hang, never a measure of speed.
    static func poll(upTo seconds: TimeInterval, until condition: () throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return try condition()
    }
}
