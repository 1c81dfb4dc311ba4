import Foundation
import NIOConcurrencyHelpers
import OfferSigning

/// The bearer tokens of a run: made from the API key when first needed and made again when a
/// quarter of a token's lifetime is left before its `exp`, so that no request carries a token about
/// to expire. (`iat` is whole seconds, rounded down: a token expires up to a second less than its
/// lifetime after it was made.) Apple accepts App Store Connect tokens of at most 20 minutes and
/// App Store Server API tokens of at most 60 (docs/formats.md §5).
package final class ConnectTokenSource: Sendable {
    private let make: @Sendable (_ lifetime: Int, _ issuedAt: Date) throws -> BearerToken
    private let lifetime: Int
    private let current = NIOLockedValueBox<(token: String, renewAt: Date)?>(nil)

    /// App Store Connect API tokens of `signer`.
    /// - Parameter lifetime: seconds, 1 to ``ConnectAPITokenSigner/maximumLifetime``.
    convenience init(signer: ConnectAPITokenSigner, lifetime: Int) {
        self.init(lifetime: min(max(lifetime, 1), ConnectAPITokenSigner.maximumLifetime)) {
            try signer.token(lifetime: $0, issuedAt: $1)
        }
    }

    /// Tokens that `make` signs with the lifetime given (seconds, at least 1), such as App Store
    /// Server API tokens (`OfferSigner.serverAPIToken(lifetime:issuedAt:)`).
    package init(
        lifetime: Int, make: @escaping @Sendable (_ lifetime: Int, _ issuedAt: Date) throws -> BearerToken
    ) {
        self.make = make
        self.lifetime = max(lifetime, 1)
    }

    /// A token that is valid for at least a quarter of its lifetime.
    package func token(now: Date = Date()) throws -> String {
        try current.withLockedValue { current in
            if let current, now < current.renewAt { return current.token }
            let token = try make(lifetime, now)
            current = (token.token, token.expiresAt.addingTimeInterval(-Double(lifetime) * 0.25))
            return token.token
        }
    }
}
