import Foundation
import NIOConcurrencyHelpers
import OfferSigning

/// The bearer tokens of a run: made from the API key when first needed and made again when a
/// quarter of a token's lifetime is left before its `exp`, so that no request carries a token about
/// to expire. (`iat` is whole seconds, rounded down: a token expires up to a second less than its
/// lifetime after it was made.) Apple accepts App Store Connect tokens of at most 20 minutes (SPEC §5).
final class ConnectTokenSource: Sendable {
    private let signer: ConnectAPITokenSigner
    private let lifetime: Int
    private let current = NIOLockedValueBox<(token: String, renewAt: Date)?>(nil)

    /// - Parameter lifetime: seconds, 1 to ``ConnectAPITokenSigner/maximumLifetime``.
    init(signer: ConnectAPITokenSigner, lifetime: Int) {
        self.signer = signer
        self.lifetime = min(max(lifetime, 1), ConnectAPITokenSigner.maximumLifetime)
    }

    /// A token that is valid for at least a quarter of its lifetime.
    func token(now: Date = Date()) throws -> String {
        try current.withLockedValue { current in
            if let current, now < current.renewAt { return current.token }
            let token = try signer.token(lifetime: lifetime, issuedAt: now)
            current = (token.token, token.expiresAt.addingTimeInterval(-Double(lifetime) * 0.25))
            return token.token
        }
    }
}
