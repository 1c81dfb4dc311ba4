import Foundation

/// Runs Python verifier scripts (`Tests/Interop/*.py`) and `python -c` probes in long-lived interpreters
/// (`Tests/Interop/python_runner.py`) instead of one new process each: starting Python and importing
/// cryptography, PyJWT or Apple's library took longer than most verifications themselves.
///
/// The scripts and libraries are the same, and so are what a run reads and gives back: its arguments,
/// standard input, standard output and error, and exit status. At most ``capacity`` interpreters run at
/// once, each one request at a time; their pipes are read and written on threads of their own
/// (``OwnedThread``), so a caller waits without holding a thread of Swift's pool.
public actor PythonRunner {
    /// The runner of the interpreter the tests use (`InteropEnvironment.python`).
    public static let shared = PythonRunner(python: InteropEnvironment.python, capacity: 2)

    /// `Tests/Interop/python_runner.py`.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop/python_runner.py").path

    /// Whether ``ExternalProcess/run(_:_:stdin:)`` hands `executable arguments` to a runner: the test
    /// interpreter running `-c CODE` or a script of `Tests/Interop/`, unless `OFFERKIT_TEST_PYTHON_RUNNER`
    /// is `0` (then every run is a process of its own).
    ///
    /// A whole-suite run once stalled with an interpreter and its caller each waiting to read from the
    /// other; its cause was not found. Two ways to such a stall are closed: the runner keeps its
    /// request and answer pipes on file descriptors of their own (a child process of a script would
    /// otherwise inherit the request pipe as its standard input and the answer pipe as its standard
    /// output), and the answer is read with read(2), line by line, keeping what follows a line for the
    /// next answer. `Tests/Interop/python_runner.py` lists where a run differs from a process of its
    /// own; no verifier depends on those differences.
    static func runs(_ executable: String, _ arguments: [String]) -> Bool {
        guard ProcessInfo.processInfo.environment["OFFERKIT_TEST_PYTHON_RUNNER"] != "0" else { return false }
        guard executable == InteropEnvironment.python, let first = arguments.first else { return false }
        if first == "-c" { return arguments.count >= 2 }
        let folder = URL(fileURLWithPath: script).deletingLastPathComponent().path + "/"
        return first.hasPrefix(folder) && first.hasSuffix(".py")
    }

    let python: String
    let capacity: Int
    private var idle: [Interpreter] = []
    private var started = 0
    private var waiting: [CheckedContinuation<Interpreter, Never>] = []

    init(python: String, capacity: Int) {
        self.python = python
        self.capacity = capacity
    }

    /// Runs `python arguments…` with `stdin` in one of the interpreters.
    public func run(_ arguments: [String], stdin: Data?) async -> ExternalProcess.Result {
        let interpreter = await take()
        let result = await interpreter.run(arguments, stdin: stdin ?? Data())
        give(interpreter.isAlive ? interpreter : nil)
        return result
    }

    private func take() async -> Interpreter {
        if let interpreter = idle.popLast() { return interpreter }
        if started < capacity {
            started += 1
            return Interpreter(python: python)
        }
        return await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands `interpreter` to the next caller waiting, or keeps it; `nil`: it ended, another may start.
    private func give(_ interpreter: Interpreter?) {
        guard let interpreter else {
            started -= 1
            if !waiting.isEmpty {
                started += 1
                waiting.removeFirst().resume(returning: Interpreter(python: python))
            }
            return
        }
        if waiting.isEmpty { idle.append(interpreter) } else { waiting.removeFirst().resume(returning: interpreter) }
    }

    /// One `python_runner.py` process, its pipes used on a thread of their own.
    final class Interpreter: @unchecked Sendable {
        private let process = Process()
        private let requests = Pipe()
        private let answers = Pipe()
        private let lock = NSLock()
        private var alive = true
        private var startFailure: String?

        init(python: String) {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [python, "-u", PythonRunner.script]
            process.standardInput = requests
            process.standardOutput = answers
            process.standardError = FileHandle.nullDevice  // each run's stderr comes in its answer
            do {
                try process.run()
            } catch {
                startFailure = "\(python) could not be started: \(error)"
                alive = false
            }
        }

        deinit {
            try? requests.fileHandleForWriting.close()
        }

        var isAlive: Bool { lock.withLock { alive } }

        func run(_ arguments: [String], stdin: Data) async -> ExternalProcess.Result {
            if let startFailure { return ExternalProcess.Result(status: -1, stdout: "", stderr: startFailure) }
            let request: [String: Any] = ["argv": arguments, "stdin": stdin.base64EncodedString()]
            guard var line = try? JSONSerialization.data(withJSONObject: request) else {
                return ExternalProcess.Result(status: -1, stdout: "", stderr: "the request could not be encoded")
            }
            line.append(UInt8(ascii: "\n"))
            let message = line
            return await OwnedThread.run { self.exchange(message) }
        }

        /// Writes the request and reads the one-line answer (on an ``OwnedThread``).
        private func exchange(_ request: Data) -> ExternalProcess.Result {
            do {
                try requests.fileHandleForWriting.write(contentsOf: request)
                let answer = try readLine()
                guard let object = try JSONSerialization.jsonObject(with: answer) as? [String: Any],
                    let status = object["status"] as? Int,
                    let out = (object["stdout"] as? String).flatMap({ Data(base64Encoded: $0) }),
                    let err = (object["stderr"] as? String).flatMap({ Data(base64Encoded: $0) })
                else { throw RunnerEnded() }
                return ExternalProcess.Result(
                    status: Int32(truncatingIfNeeded: status), stdout: String(decoding: out, as: UTF8.self),
                    stderr: String(decoding: err, as: UTF8.self))
            } catch {
                lock.withLock { alive = false }
                process.terminate()
                return ExternalProcess.Result(
                    status: -1, stdout: "", stderr: "python_runner.py ended or answered garbage: \(error)")
            }
        }

        /// Bytes read after the last answer's end (none, as long as the runner writes one line per request).
        private var unread: [UInt8] = []

        /// The next answer line, read with read(2): it returns what the pipe holds, where FileHandle's
        /// reads may wait for more. Each read's bytes are searched once for the line's end.
        private func readLine() throws -> Data {
            let descriptor = answers.fileHandleForReading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var searched = 0
            while true {
                if let end = unread[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                    defer { unread.removeSubrange(...end) }
                    return Data(unread[...end])
                }
                searched = unread.count
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw RunnerEnded() }
                unread.append(contentsOf: buffer[..<count])
            }
        }

        private struct RunnerEnded: Error {}
    }
}
