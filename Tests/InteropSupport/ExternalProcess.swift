import Foundation

/// Runs the independent tools the interop tests compare OfferKit against (Python with its
/// verifiers, the `openssl` CLI), for every test target.
public enum ExternalProcess {
    /// How a run ended and what the tool wrote.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Runs `executable`, found on `PATH` through `/usr/bin/env`, with `arguments` and `stdin` as
    /// its standard input (none when `nil`), and waits for it to end without holding a thread
    /// (``ChildProcess``). Output goes through files, so that nothing can block however much the
    /// tool writes. `status` is the exit status (the signal's number when a signal ended it).
    ///
    /// The test interpreter running a script of `Tests/Interop/` or `-c CODE` runs in a long-lived
    /// interpreter instead (``PythonRunner``): the same script, arguments, input, output and status.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) async throws -> Result {
        if PythonRunner.runs(executable, arguments) { return await PythonRunner.shared.run(arguments, stdin: stdin) }
        let child = try ChildProcess(command: executable, arguments, stdin: stdin.map { .data($0) } ?? .none)
        let ending = await child.ending()
        return Result(status: ending.rawStatus, stdout: child.stdout, stderr: child.stderr)
    }

    /// Whether `executable` runs with `arguments` and exits 0 (a probe for a tool or a Python module),
    /// asked once per process and remembered.
    public static func succeeds(_ executable: String, _ arguments: [String]) async -> Bool {
        await runOnce(executable, arguments)?.status == 0
    }

    /// ``run(_:_:stdin:)`` once per process for these arguments, the result remembered (`nil`: it could not
    /// be started); for probes, such as whether Python can import a stand-in's packages.
    public static func runOnce(_ executable: String, _ arguments: [String]) async -> Result? {
        await probes.answer(for: [executable] + arguments) { try? await run(executable, arguments) }
    }

    private static let probes = Probes()

    /// The answers of ``runOnce(_:_:)``, each asked once (concurrent askers share the run).
    private actor Probes {
        private var answers: [[String]: Task<Result?, Never>] = [:]

        func answer(for key: [String], _ ask: @escaping @Sendable () async -> Result?) async -> Result? {
            if let task = answers[key] { return await task.value }
            let task = Task { await ask() }
            answers[key] = task
            return await task.value
        }
    }
}
