import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the stand-in launchers (`AppStoreConnectStandIn`, `AppStoreServerStandIn`) share: whether Python can
/// import a stand-in's packages, starting the Python process and reading its `listening on` line, and the
/// running process (its stderr, stopping it, one blocking HTTP request, a control request).
enum StandInIO {
    /// What went wrong, for the launcher's own error.
    struct Problem: Error {
        let detail: String
        init(_ detail: String) { self.detail = detail }
    }

    /// A started stand-in process; the launcher wraps each `Problem` in its own `Failure`.
    final class Running: @unchecked Sendable {
        /// `http://127.0.0.1:PORT`, without a trailing slash.
        let baseURL: String
        /// The temporary folder with the process's `stderr` (and what the launcher puts there).
        let folder: URL
        private let process: Process
        private let stdout: Pipe
        private let lock = NSLock()

        init(process: Process, stdout: Pipe, folder: URL, baseURL: String) {
            self.process = process
            self.stdout = stdout
            self.folder = folder
            self.baseURL = baseURL
        }

        /// What the process wrote to stderr so far.
        var stderr: String {
            String(decoding: (try? Data(contentsOf: folder.appendingPathComponent("stderr"))) ?? Data(), as: UTF8.self)
        }

        /// Whether the process still runs.
        var isRunning: Bool { lock.withLock { process.isRunning } }

        /// Stops the process (SIGTERM, then SIGKILL after 5 s) and removes its folder; safe to call twice.
        func stop() {
            lock.withLock {
                if process.isRunning {
                    process.terminate()
                    let deadline = Date().addingTimeInterval(5)
                    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                    process.waitUntilExit()
                }
                try? FileManager.default.removeItem(at: folder)
            }
        }

        /// One blocking HTTP request to the stand-in; `.failure` holds what went wrong (no answer, not a path).
        func request(
            _ method: String, _ path: String, body: Data?, contentType: String, bearer: String?,
            headers: [String: String], timeout: Double
        ) -> Result<AppStoreConnectStandIn.Answer, Problem> {
            guard let url = URL(string: baseURL + path) else { return .failure(Problem("not a path: \(path)")) }
            var request = URLRequest(url: url, timeoutInterval: timeout)
            request.httpMethod = method
            request.httpBody = body
            if body != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
            if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

            final class Outcome: @unchecked Sendable { var result: Result<AppStoreConnectStandIn.Answer, Problem>? }
            let outcome = Outcome()
            let done = DispatchSemaphore(value: 0)
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            session.dataTask(with: request) { data, response, error in
                if let error {
                    outcome.result = .failure(Problem(error.localizedDescription))
                } else if let response = response as? HTTPURLResponse {
                    var fields: [String: String] = [:]
                    for (name, value) in response.allHeaderFields {
                        fields[String(describing: name)] = String(describing: value)
                    }
                    outcome.result = .success(
                        AppStoreConnectStandIn.Answer(
                            status: response.statusCode, headers: fields, body: data ?? Data()))
                } else {
                    outcome.result = .failure(Problem("no HTTP response"))
                }
                done.signal()
            }.resume()
            done.wait()
            return outcome.result ?? .failure(Problem("no HTTP response"))
        }

        /// A control request (`/_standin/…`, JSON body, no token) that must answer 200.
        func control(_ method: String, _ path: String, body: Data?) -> Result<AppStoreConnectStandIn.Answer, Problem> {
            request(
                method, path, body: body, contentType: "application/json", bearer: nil, headers: [:], timeout: 30
            ).flatMap { answer in
                answer.status == 200 ? .success(answer) : .failure(Problem("HTTP \(answer.status): \(answer.text)"))
            }
        }
    }

    /// Why `python` cannot run a stand-in here (`nil` when it imports `modules`, e.g. `"jsonschema, jwt"`).
    static func unavailableReason(python: String, imports modules: String) -> String? {
        let probe = try? ExternalProcess.run(python, ["-c", "import \(modules)"])
        guard let probe else { return "\(python) could not be run" }
        return probe.status == 0 ? nil : probe.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `arguments` (run through `/usr/bin/env` in the package root) and waits up to 60 s for its
    /// first line, `listening on http://127.0.0.1:PORT`.
    /// - Returns: the process, or the reason it did not start (its first line and stderr).
    static func launch(_ arguments: [String], folderPrefix: String, in root: URL) throws -> Result<Running, Problem> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(folderPrefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = root
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()

        let line = firstLine(of: stdout.fileHandleForReading, seconds: 60)
        let prefix = "listening on "
        guard let line, line.hasPrefix(prefix + "http://127.0.0.1:") else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
            try? FileManager.default.removeItem(at: folder)
            let first = line.map { "\"\($0)\"" } ?? "missing"
            return .failure(Problem("first line \(first); stderr: \(stderr)"))
        }
        return .success(
            Running(process: process, stdout: stdout, folder: folder, baseURL: String(line.dropFirst(prefix.count))))
    }

    /// Reads up to the first newline (or the end) within `seconds`; `nil` on a timeout.
    static func firstLine(of handle: FileHandle, seconds: Double) -> String? {
        final class Box: @unchecked Sendable { var bytes = Data() }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                box.bytes.append(chunk)
                if chunk.contains(UInt8(ascii: "\n")) { break }
            }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        let text = String(decoding: box.bytes, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
    }
}
