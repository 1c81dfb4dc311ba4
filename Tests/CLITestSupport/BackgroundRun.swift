import Foundation
import InteropSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `offerkit` started in the background (not ``CLI/run(_:environment:stdin:cwd:peakMemory:)``, which
/// waits for it), so that a test can SIGKILL it. stdout and stderr go to files, readable while it runs.
final class BackgroundRun: @unchecked Sendable {
    private let child: ChildProcess

    init(_ arguments: [String], in files: CampaignFiles) throws {
        child = try ChildProcess(
            CLI.binary, arguments, environment: CLI.environment(adding: [:]), currentDirectory: files.folder.url)
    }

    var stdout: String { child.stdout }
    var stderr: String { child.stderr }

    /// Whether the process still runs.
    var isRunning: Bool { child.isRunning }

    /// Polls `condition` every 5 ms until it holds (true), the process ends or `seconds` pass (false);
    /// sleeps with `Task.sleep`, so no thread is held meanwhile.
    func poll(upTo seconds: Double, until condition: () -> Bool) async -> Bool {
        await child.poll(upTo: seconds, every: 0.005, until: condition)
    }

    /// Checks `condition` every 2 ms on a dispatch queue of its own and sends SIGKILL the moment it
    /// holds: true when it held before the process ended by itself and before `seconds` passed.
    ///
    /// For a condition that may hold only briefly (a file that is there while a fast run writes it):
    /// ``poll(upTo:until:)`` wakes on Swift's pool, which a full test run keeps busy for longer than
    /// such a run lasts; a dispatch timer does not wait for the pool, and the signal is sent from it.
    /// Nothing blocks: the task is suspended until the timer decides. Then call ``kill()`` to reap.
    func killWhen(upTo seconds: Double, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
        let child = self.child
        let deadline = DispatchTime.now() + seconds
        return await withCheckedContinuation { continuation in
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "offerkit.tests.kill-when"))
            timer.schedule(deadline: .now(), repeating: .milliseconds(2))
            timer.setEventHandler {
                let held = child.isRunning && condition()
                if held { child.send(SIGKILL) }
                guard held || !child.isRunning || DispatchTime.now() > deadline else { return }
                timer.cancel()
                continuation.resume(returning: held)
            }
            timer.resume()
        }
    }

    /// Sends SIGKILL and waits for the process; true when the signal ended it (it was still running).
    func kill() async -> Bool {
        await child.kill() == .signalled(SIGKILL)
    }

    /// Waits for the process to end by itself and returns its exit status (`nil`: ended by a signal).
    func waitForExit() async -> Int32? {
        if case .exited(let status) = await child.ending() { return status }
        return nil
    }
}
