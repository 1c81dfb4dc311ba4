import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import OfferService
import OfferSigning
import Testing

/// A service over the demo key (`keys-example/`) for two apps, with API keys of several scopes.
enum ServiceFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let keyFile = packageRoot.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.p8").path
    static let publicKeyFile = packageRoot.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.pub.pem")
        .path
    static let keyID = "DEMOKEY123"
    static let issuerID = "98802e6e-bab8-4f06-8c88-a2582cda3c9c"
    static let app = "com.example.offerkit.demo"
    static let otherApp = "com.example.offerkit.other"

    /// A key with every scope for every app.
    static let admin = APIKey.generate(name: "admin")
    /// A key that may only sign V2 promotional offers, only for ``app``.
    static let promotionalOnly = APIKey.generate(
        name: "promotional-only", scopes: [.promotionalOffer], bundleIDs: [app])

    static var configuration: ServiceConfiguration {
        let credentials = AppCredentials(keyFile: keyFile, keyID: keyID, issuerID: issuerID)
        return ServiceConfiguration(
            apps: [app: credentials, otherApp: credentials],
            connectAPI: ConnectAPICredentials(keyFile: keyFile, keyID: keyID, issuerID: issuerID),
            apiKeys: [admin.key, promotionalOnly.key])
    }

    /// The service, with the configuration changed by `change`.
    static func service(
        authentication: Authentication = .required, clock: SigningClock = .system,
        _ change: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws -> OfferService {
        var configuration = configuration
        change(&configuration)
        return try OfferService(configuration: configuration, authentication: authentication, clock: clock)
    }

    /// An application serving `service`, logging only critical messages (tests stay quiet).
    static func application(_ service: OfferService) -> some ApplicationProtocol {
        var logger = Logger(label: "OfferServiceTests")
        logger.logLevel = .critical
        return Application(router: service.makeRouter(), logger: logger)
    }

    /// The demo key's public key, for verifying.
    static let publicKeyPEM: String = {
        guard let pem = try? String(contentsOfFile: publicKeyFile, encoding: .utf8) else {
            fatalError("keys-example/SubscriptionKey_DEMOKEY123.pub.pem is missing")
        }
        return pem
    }()
}

/// A response with its body parsed.
struct ServiceResponse {
    let status: Int
    let headers: HTTPFields
    let text: String
    let json: JSONValue?

    /// The string member `name` of the body.
    func string(_ name: String) -> String? {
        guard case .string(let value)? = json?[name] else { return nil }
        return value
    }

    /// The problem type slug (`invalid-field` for `urn:offerkit:problem:invalid-field`).
    var problemSlug: String? { string("type").map { String($0.dropFirst("urn:offerkit:problem:".count)) } }
}

extension TestClientProtocol {
    /// Sends a request; `json` becomes the body with `Content-Type: application/json`, `key` the
    /// bearer token.
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, key: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> ServiceResponse {
        var headers = extra
        if let key { headers[.authorization] = "Bearer \(key)" }
        if json != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        let response = try await execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
        let text = String(buffer: response.body)
        return ServiceResponse(
            status: Int(response.status.code), headers: response.headers, text: text,
            json: try? JSONValue.parse(Array(text.utf8)))
    }
}
