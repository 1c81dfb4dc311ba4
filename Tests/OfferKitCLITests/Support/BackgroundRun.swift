import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `offerkit` binary started with Foundation's `Process` (not ``CLI/run(_:environment:stdin:cwd:)``,
/// which waits for it), so that a test can SIGKILL it. stdout and stderr go to files in a folder
/// of their own, readable while the process runs.
final class BackgroundRun {
    private let process = Process()
    private let spool: TempDir
    private let outHandle: FileHandle
    private let errHandle: FileHandle

    init(_ arguments: [String], in files: CampaignFiles) throws {
        guard let binary = CLI.binary else {
            throw CLIRunnerError(description: "the offerkit executable was not found: \(CLI.binaryCandidates)")
        }
        spool = try TempDir.make()
        _ = FileManager.default.createFile(atPath: spool.file("out"), contents: nil)
        _ = FileManager.default.createFile(atPath: spool.file("err"), contents: nil)
        outHandle = try FileHandle(forWritingTo: spool.url.appendingPathComponent("out"))
        errHandle = try FileHandle(forWritingTo: spool.url.appendingPathComponent("err"))
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = files.folder.url
        process.environment = CLI.environment(adding: [:])
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning {
            killProcess(process.processIdentifier)
            process.waitUntilExit()
        }
        try? outHandle.close()
        try? errHandle.close()
        spool.remove()
    }

    var stdout: String {
        String(decoding: FileManager.default.contents(atPath: spool.file("out")) ?? Data(), as: UTF8.self)
    }
    var stderr: String {
        String(decoding: FileManager.default.contents(atPath: spool.file("err")) ?? Data(), as: UTF8.self)
    }

    /// Whether the process still runs.
    var isRunning: Bool { process.isRunning }

    /// Polls `condition` every 5 ms until it holds (true), the process ends or `seconds` pass (false).
    ///
    /// Synchronous on purpose: an async sleep may resume late when other tests block the
    /// cooperative threads, and the kill would then come after the work it should interrupt.
    func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            if !process.isRunning { return condition() }
            usleep(5000)
        }
        return condition()
    }

    /// Sends SIGKILL and waits for the process; true when the signal ended it (it was still running).
    func kill() -> Bool {
        if process.isRunning { killProcess(process.processIdentifier) }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// Waits for the process to end by itself and returns its exit status (`nil`: ended by a signal).
    func waitForExit() -> Int32? {
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }
}

/// SIGKILL to one process (outside ``BackgroundRun``, whose `kill()` hides the C function).
private func killProcess(_ pid: Int32) {
    _ = kill(pid, SIGKILL)
}
