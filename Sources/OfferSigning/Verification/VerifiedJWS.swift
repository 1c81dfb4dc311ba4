import Foundation

/// A compact JWS whose signature verified and whose header and claims have the form its kind
/// requires.
public struct VerifiedJWS: Sendable {
    /// The protected header.
    public struct Header: Hashable, Sendable, Codable {
        public let alg: String
        public let kid: String
        public let typ: String
    }

    /// The claims, typed. Members a kind does not use are `nil`.
    public struct Claims: Hashable, Sendable, Codable {
        public var iss: String?
        public var sub: String?
        public var iat: Int64
        public var exp: Int64?
        public var aud: String
        public var bid: String?
        public var nonce: String?
        public var productId: String?
        public var offerIdentifier: String?
        public var transactionId: String?
        public var allowIntroductoryOffer: Bool?
        /// The Advanced Commerce request, still base64-encoded as signed.
        public var request: String?
        public var scope: [String]?
    }

    /// What kind of JWS this is, from its audience and claims.
    public let kind: JWSKind
    public let header: Header
    public let claims: Claims
    /// The decoded Advanced Commerce request, for ``JWSKind/advancedCommerce``.
    public let advancedCommerceRequest: AdvancedCommerce.InAppRequest?
    /// The header JSON exactly as signed.
    public let headerJSON: String
    /// The payload JSON exactly as signed.
    public let payloadJSON: String
}
