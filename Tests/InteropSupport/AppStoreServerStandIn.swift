import Foundation

/// The local App Store Server API stand-in for the Retention Messaging API
/// (`Tests/StandIns/app_store_server.py`) as a running process, for the tests of `offerkit retention`.
///
/// It checks every request the way Apple documents (App Store Server API tokens of the demo key with a
/// registered `bid`, Apple's body rules and error codes), keeps each app's messages, images, default
/// messages and real-time URL, runs real performance tests against a URL it is given, and exposes its
/// state, review and fault injection through `/_standin/`; see `Tests/StandIns/README.md`.
///
/// ```swift
/// let standIn = try await AppStoreServerStandIn.start()
/// defer { standIn.stop() }
/// try await standIn.review(kind: "message", identifier: id)          // Apple's approval
/// try await standIn.configure(#"{"deliverTo": "http://127.0.0.1:8080"}"#)
/// let state = try await standIn.state()
/// ```
public final class AppStoreServerStandIn: @unchecked Sendable {
    /// Why the stand-in could not be started or asked.
    public enum Failure: LocalizedError, Sendable {
        /// The Python interpreter cannot import what the stand-in needs.
        case pythonUnavailable(python: String, detail: String)
        /// The process ended, or printed something else, before its `listening on` line.
        case didNotStart(detail: String)
        /// A control request failed or answered with an unexpected status.
        case request(path: String, detail: String)

        public var errorDescription: String? {
            switch self {
            case .pythonUnavailable(let python, let detail):
                return "the App Store Server API stand-in needs Python with PyJWT, cryptography and "
                    + "app-store-server-library, but \(python) cannot import them (run .ci/run, or "
                    + "pip install PyJWT cryptography app-store-server-library==3.1.2 and set "
                    + "OFFERKIT_PYTHON): \(detail)"
            case .didNotStart(let detail):
                return "the App Store Server API stand-in did not start: \(detail)"
            case .request(let path, let detail):
                return "the App Store Server API stand-in's \(path) failed: \(detail)"
            }
        }
    }

    /// `Tests/StandIns/app_store_server.py`.
    public static let script = AppStoreConnectStandIn.packageRoot.appendingPathComponent(
        "Tests/StandIns/app_store_server.py"
    ).path
    /// The demo app (keys-example/config.json) and the App Apple ID the stand-in gives it.
    public static let bundleId = "com.example.offerkit.demo"
    public static let appAppleId = 1_234_567_890
    /// The auto-renewable subscriptions the stand-in knows by default.
    public static let productIds = ["com.example.offerkit.monthly", "com.example.offerkit.yearly"]

    /// The modules the stand-in imports beyond the standard library: PyJWT and cryptography (its own and
    /// `standin_support.py`'s imports, the test chain's `make_apple_signed.py`), and Apple's
    /// `RealtimeResponseBody` model, which it checks the real-time answers with (its suite also drives
    /// Apple's client and `SignedDataVerifier`, of the same package). Not jsonschema: it has no schemas.
    public static let requiredModules =
        "jwt, cryptography.x509, cryptography.hazmat.primitives.serialization, "
        + "appstoreserverlibrary.models.RealtimeResponseBody, appstoreserverlibrary.models.LibraryUtility"

    /// Why the stand-in cannot run with `python` (`nil` when it imports ``requiredModules``).
    public static func missingModules(python: String) async -> String? {
        await StandInIO.unavailableReason(python: python, imports: requiredModules)
    }

    /// Why the stand-in cannot run here (`nil` when `InteropEnvironment.python` imports its packages).
    public static var unavailableReason: String? {
        get async { await missingModules(python: InteropEnvironment.python) }
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { running.baseURL }
    /// The test root certificate (PEM) the stand-in's real-time requests chain to (`--test-root-out`):
    /// give it to `offerkit serve` as `retention.rootCertificates`.
    public let testRootPath: String
    private let running: StandInIO.Running

    private init(running: StandInIO.Running, testRootPath: String) {
        self.running = running
        self.testRootPath = testRootPath
    }

    deinit { stop() }

    /// Starts a stand-in that accepts the demo key's App Store Server API tokens for `apps` (bundle ID
    /// to App Apple ID).
    /// - Parameters:
    ///   - environment: `Sandbox` or `Production` (a production URL needs a passed test first).
    ///   - extraArguments: more options of the stand-in, e.g. `["--verbose"]`.
    /// - Throws: ``Failure`` when Python or its packages are missing or the process does not start.
    public static func start(
        environment: String = "Sandbox", apps: [String: Int] = [bundleId: appAppleId],
        products: [String] = productIds, extraArguments: [String] = []
    ) async throws -> AppStoreServerStandIn {
        if let reason = await unavailableReason {
            throw Failure.pythonUnavailable(python: InteropEnvironment.python, detail: reason)
        }
        let rootFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offerkit-ass-root-\(UUID().uuidString).pem")
        var arguments = [
            InteropEnvironment.python, script, "--public-key", AppStoreConnectStandIn.publicKeyPath, "--key-id",
            AppStoreConnectStandIn.keyId, "--issuer-id", AppStoreConnectStandIn.issuerId, "--environment", environment,
            "--products", products.joined(separator: ","), "--test-root-out", rootFile.path,
        ]
        for (bundle, id) in apps.sorted(by: { $0.key < $1.key }) { arguments += ["--app", "\(bundle)=\(id)"] }
        arguments += extraArguments
        switch try await StandInIO.launch(
            arguments, folderPrefix: "offerkit-ass-standin", in: AppStoreConnectStandIn.packageRoot)
        {
        case .success(let running):
            let destination = running.folder.appendingPathComponent("test-root.pem")
            try? FileManager.default.moveItem(at: rootFile, to: destination)
            return AppStoreServerStandIn(running: running, testRootPath: destination.path)
        case .failure(let problem):
            try? FileManager.default.removeItem(at: rootFile)
            throw Failure.didNotStart(detail: problem.detail)
        }
    }

    /// What the stand-in wrote to stderr so far (its own problems; `--verbose` logs every request).
    public var stderr: String { running.stderr }

    /// Whether the process still runs.
    public var isRunning: Bool { running.isRunning }

    /// Stops the process (SIGTERM, then SIGKILL after 5 s) and removes its temporary files; returns at once
    /// (for `defer`); safe to call twice.
    public func stop() { running.stop() }

    /// ``stop()``, then waits for the process to end (nothing listens at ``baseURL`` any more).
    @discardableResult
    public func stopped() async -> ChildProcess.Ending { await running.stopped() }

    /// One HTTP request to the stand-in (a path such as `/inApps/v1/messaging/message/list`).
    public func request(
        _ method: String, _ path: String, body: Data? = nil, contentType: String = "application/json",
        bearer: String? = nil, headers: [String: String] = [:], timeout: Double = 30
    ) async throws -> AppStoreConnectStandIn.Answer {
        try await running.request(
            method, path, body: body, contentType: contentType, bearer: bearer, headers: headers, timeout: timeout
        ).mapError { Failure.request(path: path, detail: $0.detail) }.get()
    }

    /// `GET /_standin/state` (see the README): the apps' data, the tokens seen, the counters, the log.
    public func stateData() async throws -> Data { try await control("GET", "/_standin/state", body: nil).body }

    /// `GET /_standin/state` as a JSON object.
    public func state() async throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: try await stateData()) as? [String: Any] else {
            throw Failure.request(path: "/_standin/state", detail: "the state is not a JSON object")
        }
        return object
    }

    /// The demo app's (or `bundleId`'s) part of the state.
    public func app(_ bundleId: String = AppStoreServerStandIn.bundleId) async throws -> [String: Any] {
        guard let apps = try await state()["apps"] as? [String: Any], let app = apps[bundleId] as? [String: Any] else {
            throw Failure.request(path: "/_standin/state", detail: "no app \(bundleId)")
        }
        return app
    }

    /// `POST /_standin/config` with a JSON object, e.g. `{"autoApprove": true}`.
    public func configure(_ json: String) async throws {
        _ = try await control("POST", "/_standin/config", body: Data(json.utf8))
    }

    /// `POST /_standin/review`: Apple's review of a message or image (`APPROVED`, `REJECTED`, `PENDING`).
    public func review(kind: String, identifier: String, state: String = "APPROVED") async throws {
        let body = try JSONSerialization.data(withJSONObject: ["kind": kind, "identifier": identifier, "state": state])
        _ = try await control("POST", "/_standin/review", body: body)
    }

    /// `POST /_standin/faults`: replaces the fault setup (`{"script": [...], "random": {...}}`).
    public func setFaults(_ json: String) async throws {
        _ = try await control("POST", "/_standin/faults", body: Data(json.utf8))
    }

    /// `POST /_standin/reset`: the start-up state.
    public func reset() async throws { _ = try await control("POST", "/_standin/reset", body: Data("{}".utf8)) }

    private func control(_ method: String, _ path: String, body: Data?) async throws -> AppStoreConnectStandIn.Answer {
        try await running.control(method, path, body: body).mapError { Failure.request(path: path, detail: $0.detail) }
            .get()
    }
}
