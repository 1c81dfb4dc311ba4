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
    /// - Throws: ``ConfigurationError/keyNotLoaded(bundleId:reason:)`` naming the app whose key
    ///   or IDs are unusable.
    public init(
        configuration: ServiceConfiguration, clock: SigningClock = .system, nonces: NonceGenerator = .random
    ) throws(ConfigurationError) {
        var signers: [String: OfferSigner] = [:]
        for (bundleId, app) in configuration.apps {
            do {
                let key = try SigningKey(contentsOfFile: app.keyFile, keyId: app.keyId)
                signers[bundleId] = try OfferSigner(
                    key: key, issuerId: app.issuerId, bundleId: bundleId, clock: clock, nonces: nonces)
            } catch {
                throw .keyNotLoaded(bundleId: bundleId, reason: Self.reason(error))
            }
        }
        var connectAPI: ConnectAPITokenSigner?
        if let connect = configuration.connectAPI {
            do {
                let key = try SigningKey(contentsOfFile: connect.keyFile, keyId: connect.keyId)
                connectAPI = try ConnectAPITokenSigner(
                    key: key, issuer: connect.issuerId.map { .team(issuerId: $0) } ?? .individual, clock: clock)
            } catch {
                throw .keyNotLoaded(bundleId: "(connectApiKey)", reason: Self.reason(error))
            }
        }
        self.init(signers: signers, connectAPI: connectAPI)
    }

    /// The signer for `bundleId`, if configured.
    public func signer(for bundleId: String) -> OfferSigner? { signers[bundleId] }

    /// The configured bundle IDs, sorted.
    public var bundleIds: [String] { signers.keys.sorted() }

    private static func reason(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? "the key file is not a P-256 private key"
    }
}
