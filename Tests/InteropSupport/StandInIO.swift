import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the stand-in launchers (`AppStoreConnectStandIn`, `AppStoreServerStandIn`) share: whether Python can
/// import a stand-in's packages, starting the Python process and reading its `listening on` line, and the
/// running process (its stderr, stopping it, one HTTP request, a control request).
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
        /// A temporary folder of the stand-in's own (what the launcher puts there), removed by ``stop()``.
        let folder: URL
        private let child: ChildProcess

        init(child: ChildProcess, folder: URL, baseURL: String) {
            self.child = child
            self.folder = folder
            self.baseURL = baseURL
        }

        deinit { stop() }

        /// What the process wrote to stderr so far.
        var stderr: String { child.stderr }

        /// Whether the process still runs.
        var isRunning: Bool { child.isRunning }

        /// Sends SIGTERM (SIGKILL after 5 s if it still runs) and removes the folder; returns at once
        /// (for `defer`, which cannot wait); safe to call twice.
        func stop() {
            child.stop(grace: 5)
            try? FileManager.default.removeItem(at: folder)
        }

        /// ``stop()``, then waits for the process to end.
        func stopped() async -> ChildProcess.Ending {
            stop()
            return await child.ending()
        }

        /// One HTTP request to the stand-in; `.failure` holds what went wrong (no answer, not a path).
        func request(
            _ method: String, _ path: String, body: Data?, contentType: String, bearer: String?,
            headers: [String: String], timeout: Double
        ) async -> Result<AppStoreConnectStandIn.Answer, Problem> {
            guard let url = URL(string: baseURL + path) else { return .failure(Problem("not a path: \(path)")) }
            var request = URLRequest(url: url, timeoutInterval: timeout)
            request.httpMethod = method
            request.httpBody = body
            if body != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
            if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            return await withCheckedContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(returning: .failure(Problem(error.localizedDescription)))
                    } else if let response = response as? HTTPURLResponse {
                        var fields: [String: String] = [:]
                        for (name, value) in response.allHeaderFields {
                            fields[String(describing: name)] = String(describing: value)
                        }
                        continuation.resume(
                            returning: .success(
                                AppStoreConnectStandIn.Answer(
                                    status: response.statusCode, headers: fields, body: data ?? Data())))
                    } else {
                        continuation.resume(returning: .failure(Problem("no HTTP response")))
                    }
                }.resume()
            }
        }

        /// A control request (`/_standin/…`, JSON body, no token) that must answer 200.
        func control(_ method: String, _ path: String, body: Data?) async -> Result<
            AppStoreConnectStandIn.Answer, Problem
        > {
            await request(
                method, path, body: body, contentType: "application/json", bearer: nil, headers: [:], timeout: 30
            ).flatMap { answer in
                answer.status == 200 ? .success(answer) : .failure(Problem("HTTP \(answer.status): \(answer.text)"))
            }
        }
    }

    /// Why `python` cannot run a stand-in here (`nil` when it imports `modules`, e.g. `"jsonschema, jwt"`).
    static func unavailableReason(python: String, imports modules: String) async -> String? {
        guard let probe = await ExternalProcess.runOnce(python, ["-c", "import \(modules)"]) else {
            return "\(python) could not be run"
        }
        return probe.status == 0 ? nil : probe.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `arguments` (run through `/usr/bin/env` in the package root) and waits up to 60 s for its
    /// first line, `listening on http://127.0.0.1:PORT`.
    /// - Returns: the process, or the reason it did not start (its first line and stderr).
    static func launch(_ arguments: [String], folderPrefix: String, in root: URL) async throws -> Result<
        Running, Problem
    > {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(folderPrefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let child = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments, currentDirectory: root)
        _ = await child.poll(upTo: 60, every: 0.02) { child.stdout.contains("\n") }
        let line = child.stdout.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
        let prefix = "listening on "
        guard let line, child.stdout.contains("\n"), line.hasPrefix(prefix + "http://127.0.0.1:") else {
            await child.kill()
            try? FileManager.default.removeItem(at: folder)
            let first = line.map { "\"\($0)\"" } ?? "missing"
            return .failure(Problem("first line \(first); stderr: \(child.stderr)"))
        }
        return .success(Running(child: child, folder: folder, baseURL: String(line.dropFirst(prefix.count))))
    }
}
