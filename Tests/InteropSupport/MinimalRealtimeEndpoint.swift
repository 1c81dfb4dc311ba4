import Foundation

/// A MINIMAL stand-in for a Get Retention Message endpoint, for the tests of `offerkit retention
/// performance-test` until they run against the real `offerkit serve`: Python's `http.server`
/// answering every `POST` with one fixed body and status (by default a valid `RealtimeResponseBody`
/// naming one message). It verifies nothing: it is what Apple's performance test calls, not a proof of
/// the endpoint (the App Store Server API stand-in's own suite verifies the signed requests with Apple's
/// library).
public final class MinimalRealtimeEndpoint: @unchecked Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    private let started: StandInIO.Started
    private let lock = NSLock()

    /// Starts the endpoint.
    /// - Parameters:
    ///   - body: the JSON every answer carries.
    ///   - status: every answer's HTTP status.
    ///   - delay: seconds before each answer.
    public init(
        body: String = #"{"message":{"messageIdentifier":"3f2b1c4e-8a7d-4f3e-9b2a-1c0d5e6f7a8b"}}"#, status: Int = 200,
        delay: Double = 0
    ) throws {
        let script = """
            import http.server, sys
            body, status, delay = sys.argv[1].encode(), int(sys.argv[2]), float(sys.argv[3])
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def log_message(self, *_): pass
                def do_POST(self):
                    import time
                    self.rfile.read(int(self.headers.get("Content-Length", "0")))
                    time.sleep(delay)
                    try:
                        self.send_response(status)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    except OSError:
                        pass
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            server.daemon_threads = True
            print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
            server.serve_forever()
            """
        switch try StandInIO.launch(
            [InteropEnvironment.python, "-c", script, body, String(status), String(delay)],
            folderPrefix: "offerkit-realtime-endpoint", in: AppStoreConnectStandIn.packageRoot)
        {
        case .success(let started):
            self.started = started
            baseURL = started.baseURL
        case .failure(let problem):
            throw AppStoreServerStandIn.Failure.didNotStart(detail: "the minimal endpoint: \(problem.detail)")
        }
    }

    deinit { stop() }

    /// Stops the process; safe to call twice.
    public func stop() { lock.withLock { StandInIO.stop(started.process, folder: started.folder) } }
}
