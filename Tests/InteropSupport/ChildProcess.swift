import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process of a test (the CLI, Python, openssl, a stand-in), awaited without holding a thread.
///
/// Swift's cooperative pool has one thread per core (two here), and every test of the process runs on
/// it: a test that blocked one of them while a child ran (Foundation's blocking wait for the exit, a
/// sleep in a poll) held up every other test. Here the end of the process comes through Foundation's
/// `terminationHandler` into a continuation, and polls sleep with `Task.sleep`, so waiting costs no
/// thread.
///
/// stdout and stderr go to files in a folder of the process's own (no pipe can fill up, and the
/// output can be read while the process runs); the folder is removed when the value goes away, and a
/// process still running then is killed (SIGKILL).
///
/// ```swift
/// let child = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "version"])
/// let ending = await child.ending()
/// #expect(ending == .exited(0), "\(child.stderr)")
/// ```
public final class ChildProcess: @unchecked Sendable {
    /// How a process ended.
    public enum Ending: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (SIGKILL, SIGTERM, …).
        case signalled(Int32)

        /// Foundation's `terminationStatus`: the exit status, or the signal's number.
        public var rawStatus: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): status
            }
        }

        /// A shell's `$?`: the exit status, or 128 + the signal's number.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }

        public var description: String {
            switch self {
            case .exited(let status): "exit \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    /// What the process reads on its standard input.
    public enum Input: Sendable {
        /// `/dev/null`.
        case none
        /// These bytes (from a file in the process's folder, so a large input cannot block).
        case data(Data)
        /// The file (or FIFO) at this path, opened for reading when the process starts.
        case file(String)
    }

    /// The executable's path and its arguments, as started.
    public let executable: URL
    public let arguments: [String]
    /// The folder with `stdout` and `stderr` (one file, `output`, when they were merged).
    public let folder: URL
    private let process = Process()
    private let state = State()
    private let outURL: URL
    private let errURL: URL

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: the whole environment; this process's when `nil`.
    ///   - currentDirectory: the working directory; this process's when `nil`.
    ///   - mergingOutput: stdout and stderr into one file (``stdout`` and ``stderr`` both read it).
    ///   - watchdog: seconds after which a process still running is killed (SIGKILL), so that a hung child
    ///     cannot hang the suite: a safety net, not a measure of time (``watchdogFired`` tells).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: URL? = nil, stdin: Input = .none, mergingOutput: Bool = false,
        watchdog seconds: Double? = nil
    ) throws {
        self.executable = executable
        self.arguments = arguments
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offerkit-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        outURL = folder.appendingPathComponent(mergingOutput ? "output" : "stdout")
        errURL = mergingOutput ? outURL : folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = mergingOutput ? out : try FileHandle(forWritingTo: errURL)
        var input: FileHandle?
        switch stdin {
        case .none: break
        case .data(let data):
            let inURL = folder.appendingPathComponent("stdin")
            try data.write(to: inURL)
            input = try FileHandle(forReadingFrom: inURL)
        case .file(let path):
            input = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        }
        defer {
            // The child has its own copies of the descriptors.
            try? out.close()
            if !mergingOutput { try? err.close() }
            try? input?.close()
        }
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input ?? FileHandle.nullDevice
        let state = state
        process.terminationHandler = { process in
            state.end(
                process.terminationReason == .uncaughtSignal
                    ? .signalled(process.terminationStatus) : .exited(process.terminationStatus))
        }
        try process.run()
        if let seconds { armWatchdog(seconds: seconds) }
    }

    /// Starts `executable`, found on `PATH` through `/usr/bin/env`.
    public convenience init(
        command executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: URL? = nil, stdin: Input = .none, mergingOutput: Bool = false,
        watchdog seconds: Double? = nil
    ) throws {
        try self.init(
            URL(fileURLWithPath: "/usr/bin/env"), [executable] + arguments, environment: environment,
            currentDirectory: currentDirectory, stdin: stdin, mergingOutput: mergingOutput, watchdog: seconds)
    }

    deinit {
        if state.ended == nil { signalProcess(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Whether it still runs (its end has not been reported yet).
    public var isRunning: Bool { state.ended == nil }

    /// How it ended, `nil` while it runs.
    public var ended: Ending? { state.ended }

    /// As Foundation's `Process` has it, once the process has ended: a signal, or an exit.
    public var terminationReason: Process.TerminationReason {
        if case .signalled = state.ended { return .uncaughtSignal }
        return .exit
    }

    /// As Foundation's `Process` has it, once the process has ended: the exit status, or the
    /// signal's number (-1 while it runs).
    public var terminationStatus: Int32 { state.ended?.rawStatus ?? -1 }

    /// Whether the watchdog killed it.
    public var watchdogFired: Bool { state.watchdogFired }

    /// What it wrote to stdout so far (stdout and stderr, when merged).
    public var stdoutData: Data { (try? Data(contentsOf: outURL)) ?? Data() }
    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    /// What it wrote to stderr so far (stdout and stderr, when merged).
    public var stderr: String { String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self) }

    /// Waits for the process to end, without holding a thread.
    @discardableResult
    public func ending() async -> Ending {
        await withCheckedContinuation { continuation in state.wait(continuation) }
    }

    /// Sends `signal` (nothing once it has ended).
    public func send(_ signal: Int32) {
        if isRunning { signalProcess(process.processIdentifier, signal) }
    }

    /// Sends SIGKILL and waits for the end.
    @discardableResult
    public func kill() async -> Ending {
        send(SIGKILL)
        return await ending()
    }

    /// Sends SIGTERM now and SIGKILL after `grace` seconds if it still runs; returns at once (for
    /// `defer` and `deinit`, which cannot wait).
    public func stop(grace: Double = 5) {
        guard isRunning else { return }
        send(SIGTERM)
        let state = state
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
            if state.ended == nil { signalProcess(pid, SIGKILL) }
        }
    }

    /// Calls `condition` every `interval` seconds (sleeping with `Task.sleep`) until it holds (`true`),
    /// or the process has ended and it still does not hold, or `seconds` have passed (`false`): a guard
    /// against a hang, never a measure of speed.
    public func poll(
        upTo seconds: Double, every interval: Double = 0.005, until condition: () throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            if !isRunning { return try condition() }
            try? await Task.sleep(for: .seconds(interval))
        }
        return try condition()
    }

    private func armWatchdog(seconds: Double) {
        let state = state
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if state.fireWatchdog() { signalProcess(pid, SIGKILL) }
        }
    }

    /// The end of the process and those waiting for it.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var ending: Ending?
        private var waiters: [CheckedContinuation<Ending, Never>] = []
        private var fired = false

        var ended: Ending? { lock.withLock { ending } }
        var watchdogFired: Bool { lock.withLock { fired } }

        func end(_ ending: Ending) {
            let waiting = lock.withLock {
                self.ending = ending
                defer { waiters = [] }
                return waiters
            }
            for waiter in waiting { waiter.resume(returning: ending) }
        }

        func wait(_ continuation: CheckedContinuation<Ending, Never>) {
            let ended = lock.withLock {
                if ending == nil { waiters.append(continuation) }
                return ending
            }
            if let ended { continuation.resume(returning: ended) }
        }

        /// Marks the watchdog as fired when the process still runs (`true`: kill it).
        func fireWatchdog() -> Bool {
            lock.withLock {
                guard ending == nil else { return false }
                fired = true
                return true
            }
        }
    }
}

/// `kill(2)`, outside ``ChildProcess`` (whose `kill()` hides the C function).
private func signalProcess(_ pid: Int32, _ signal: Int32) {
    _ = kill(pid, signal)
}

extension ChildProcess {
    /// Whether the running test binary can be started again (Linux: `/proc/self/exe`).
    public static let canRerunTestBinary = FileManager.default.fileExists(atPath: "/proc/self/exe")

    /// This test binary started again, running only the test (function) named `test` (Swift Testing's
    /// `--filter`), with `environment` added to this process's; stdout and stderr in one file.
    public static func testBinary(
        running test: String, environment: [String: String], watchdog seconds: Double? = nil
    ) throws -> ChildProcess {
        try ChildProcess(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
            ["--testing-library", "swift-testing", "--filter", test],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, mergingOutput: true,
            watchdog: seconds)
    }
}
