import Foundation
import OfferSigning

/// The configured apps' signers, built once at start-up: each key is parsed once and shared by
/// every request.
public struct AppRegistry: Sendable {
    private let signers: [String: OfferSigner]
    /// The App Store Connect API token signer, when a Connect API key is configured.
    public let connectAPI: ConnectAPITokenSigner?

    public init(signers: [String: OfferSigner], connectAPI: ConnectAPITokenSigner? = nil) {
        self.signers = signers
        self.connectAPI = connectAPI
    }

    /// Loads every app's key.
    /// - Throws: ``ConfigurationError/keyNotLoaded(bundleID:reason:)`` naming the app whose key
    ///   or IDs are unusable.
    public init(
        configuration: ServiceConfiguration, clock: SigningClock = .system, nonces: NonceGenerator = .random
    ) throws(ConfigurationError) {
        var signers: [String: OfferSigner] = [:]
        for (bundleID, app) in configuration.apps {
            do {
                let key = try SigningKey(contentsOfFile: app.keyFile, keyID: app.keyID)
                signers[bundleID] = try OfferSigner(
                    key: key, issuerID: app.issuerID, bundleID: bundleID, clock: clock, nonces: nonces)
            } catch {
                throw .keyNotLoaded(bundleID: bundleID, reason: Self.reason(error))
            }
        }
        var connectAPI: ConnectAPITokenSigner?
        if let connect = configuration.connectAPI {
            do {
                let key = try SigningKey(contentsOfFile: connect.keyFile, keyID: connect.keyID)
                connectAPI = try ConnectAPITokenSigner(
                    key: key, issuer: connect.issuerID.map { .team(issuerID: $0) } ?? .individual, clock: clock)
            } catch {
                throw .keyNotLoaded(bundleID: "(connectApiKey)", reason: Self.reason(error))
            }
        }
        self.init(signers: signers, connectAPI: connectAPI)
    }

    /// The signer for `bundleID`, if configured.
    public func signer(for bundleID: String) -> OfferSigner? { signers[bundleID] }

    /// The configured bundle IDs, sorted.
    public var bundleIDs: [String] { signers.keys.sorted() }

    private static func reason(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? "the key file is not a P-256 private key"
    }
}
