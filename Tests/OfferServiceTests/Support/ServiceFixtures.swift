import Foundation
import Hummingbird
import Logging
import OfferCodes
import OfferLedger
import OfferService
import OfferSigning

/// A service over the demo key (`keys-example/`) for two apps, with API keys of several scopes.
enum ServiceFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let keyFile = packageRoot.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.p8").path
    static let publicKeyFile = packageRoot.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.pub.pem")
        .path
    static let keyId = "DEMOKEY123"
    static let issuerId = "98802e6e-bab8-4f06-8c88-a2582cda3c9c"
    static let app = "com.example.offerkit.demo"
    static let otherApp = "com.example.offerkit.other"

    /// The V2 promotional-offer route, which every key of the fixtures may call for ``app``.
    static let promotionalOfferPath = "/v1/signatures/promotional-offer"
    /// A body that ``promotionalOfferPath`` signs for ``app``.
    static let promotionalOfferBody =
        #"{"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly","offerIdentifier":"WINBACK50"}"#

    /// A key with every scope for every app.
    static let admin = APIKey.generate(name: "admin")
    /// A key that may only sign V2 promotional offers, only for ``app``.
    static let promotionalOnly = APIKey.generate(
        name: "promotional-only", scopes: [.promotionalOffer], bundleIds: [app])

    static var configuration: ServiceConfiguration {
        let credentials = AppCredentials(keyFile: keyFile, keyId: keyId, issuerId: issuerId)
        return ServiceConfiguration(
            apps: [app: credentials, otherApp: credentials],
            connectAPI: ConnectAPICredentials(keyFile: keyFile, keyId: keyId, issuerId: issuerId),
            apiKeys: [admin.key, promotionalOnly.key])
    }

    /// The service, with the configuration changed by `change`.
    static func service(
        authentication: Authentication = .required, clock: SigningClock = .system, ledger: CodeLedger? = nil,
        _ change: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws -> OfferService {
        var configuration = configuration
        change(&configuration)
        return try OfferService(
            configuration: configuration, ledger: ledger, authentication: authentication, clock: clock)
    }

    /// An application serving `service`, logging only critical messages (tests stay quiet).
    static func application(_ service: OfferService) -> some ApplicationProtocol {
        Application(router: service.testRouter(), logger: quietLogger)
    }

    /// A logger that lets only critical messages through.
    static var quietLogger: Logger {
        var logger = Logger(label: "OfferServiceTests")
        logger.logLevel = .critical
        return logger
    }

    /// The demo key's public key, for verifying.
    static let publicKeyPEM: String = {
        guard let pem = try? String(contentsOfFile: publicKeyFile, encoding: .utf8) else {
            fatalError("keys-example/SubscriptionKey_DEMOKEY123.pub.pem is missing")
        }
        return pem
    }()
}
