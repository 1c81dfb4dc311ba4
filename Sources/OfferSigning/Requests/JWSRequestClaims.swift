import OfferJSON

/// What a request type contributes to a signed compact JWS: its audience, its checks and its
/// feature claims. The signer writes the base claims (`iss`, `iat`, `aud`, `bid`, `nonce`) first,
/// then these, so the member order is fixed.
protocol JWSRequestClaims: Sendable {
    static var kind: JWSKind { get }
    func validate() throws(RequestValidationError)
    func writeClaims(into writer: inout JSONWriter)
}
