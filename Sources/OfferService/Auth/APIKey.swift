import Crypto
import Foundation
import OfferJSON
import OfferSigning

/// An API key of the service: a name, the SHA-256 digest of its secret (the secret itself is
/// never stored), and its scopes.
///
/// Secrets are `offerkit_` followed by 43 base64url characters (32 random bytes), so a digest
/// needs no salt or slow hash: there is nothing to guess.
public struct APIKey: Sendable, Equatable {
    /// A name for logs and metrics, such as `billing-backend`.
    public let name: String
    /// SHA-256 of the secret's UTF-8 bytes.
    public let digest: [UInt8]
    /// The operations it may call; `nil` means all.
    public let scopes: Set<OperationScope>?
    /// The bundle IDs it may sign for; `nil` means all.
    public let bundleIds: Set<String>?

    /// The prefix of every secret.
    public static let secretPrefix = APIKeyFormat.secretPrefix

    public init(name: String, digest: [UInt8], scopes: Set<OperationScope>?, bundleIds: Set<String>?) {
        self.name = name
        self.digest = digest
        self.scopes = scopes
        self.bundleIds = bundleIds
    }

    /// A new key with a fresh secret from the system's CSPRNG. Show the secret once; keep only the key.
    public static func generate(
        name: String, scopes: Set<OperationScope>? = nil, bundleIds: Set<String>? = nil
    ) -> (secret: String, key: APIKey) {
        let secret = secretPrefix + Base64.urlString(SystemRandom.bytes(32))
        return (secret, APIKey(name: name, digest: digest(of: secret), scopes: scopes, bundleIds: bundleIds))
    }

    /// SHA-256 of a secret.
    public static func digest(of secret: String) -> [UInt8] { Array(SHA256.hash(data: Array(secret.utf8))) }

    /// The digest as lower-case hexadecimal, as the configuration stores it.
    public var digestHex: String { Hex.string(digest) }

    /// Whether the key may call operations of `scope`.
    public func allows(_ scope: OperationScope) -> Bool { scopes?.contains(scope) ?? true }

    /// Whether the key may sign for `bundleId`.
    public func allows(bundleId: String) -> Bool { bundleIds?.contains(bundleId) ?? true }
}
