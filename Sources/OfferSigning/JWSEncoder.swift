import Crypto
import Foundation
import OfferJSON

/// Signs payload bytes into a compact ES256 JWS. The header depends only on the key ID, so its
/// segment is encoded once; each signature costs one payload encoding and one ECDSA signature.
struct JWSEncoder: Sendable {
    let key: SigningKey
    /// `base64url({"alg":"ES256","kid":…,"typ":"JWT"}) + "."`
    private let headerPrefix: [UInt8]

    init(key: SigningKey) {
        self.key = key
        var header = JSONWriter(capacity: 48)
        header.beginObject()
        header.member("alg", "ES256")
        header.member("kid", key.keyId)
        header.member("typ", "JWT")
        header.endObject()
        var prefix: [UInt8] = []
        Base64.appendURL(header.bytes, to: &prefix)
        prefix.append(UInt8(ascii: "."))
        headerPrefix = prefix
    }

    /// The header JSON, exactly as encoded in every JWS of this key.
    static func headerJSON(keyId: String) -> String {
        #"{"alg":"ES256","kid":"\#(keyId)","typ":"JWT"}"#
    }

    func sign(payload: [UInt8]) throws(SigningError) -> String {
        var output = headerPrefix
        output.reserveCapacity(headerPrefix.count + Base64.encodedLength(payload.count, padded: false) + 88)
        Base64.appendURL(payload, to: &output)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.privateKey.signature(for: output)
        } catch {
            throw .signingFailed
        }
        output.append(UInt8(ascii: "."))
        Base64.appendURL(signature.rawRepresentation, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}

/// The cryptographic library failed to produce a signature. This does not happen with a valid
/// key; if it does, the process's crypto backend is broken.
public enum SigningError: Error, Equatable, Sendable, LocalizedError {
    case signingFailed

    public var errorDescription: String? {
        "The ECDSA P-256 signing operation failed in the crypto library; no signature was produced."
    }
}
