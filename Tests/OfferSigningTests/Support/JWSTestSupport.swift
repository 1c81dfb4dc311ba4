import Foundation
import Testing

@testable import OfferSigning

/// Helpers for the signing, verification, property and concurrency tests: independent base64
/// codecs (Foundation's, not the library's), segment access, and signing of hand-built JWS.
enum TestJWS {
    static let fixedNonce = UUID(uuidString: "3F2504E0-4F89-41D3-9A0C-0305E82C3301")!
    static let fixedNonceLower = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
    /// 2023-11-14T22:13:20.75Z: a fractional second, so `iat` must be floored to 1700000000.
    static let fixedDate = Date(timeIntervalSince1970: 1_700_000_000.75)
    static let fixedIAT: Int64 = 1_700_000_000
    static let headerJSON = #"{"alg":"ES256","kid":"DEMOKEY123","typ":"JWT"}"#

    static var verifier: JWSVerifier { JWSVerifier(key: Demo.key) }

    /// A verifier whose clock reads `date`, for JWS issued at any time up to the year 9999.
    static func verifier(at date: Date) -> JWSVerifier { JWSVerifier(key: Demo.key, clock: .fixed(date)) }

    static func fixedSigner() throws -> OfferSigner {
        try Demo.signer(clock: .fixed(fixedDate), nonces: .fixed(fixedNonce))
    }

    /// Splits a compact JWS into its three segments (fails the test when there are not three).
    static func segments(_ compact: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 3, sourceLocation: sourceLocation)
        return parts
    }

    /// Decodes unpadded base64url with Foundation (independent of the library's codec).
    static func base64URLDecode(_ text: some StringProtocol) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }

    /// Encodes base64url without padding with Foundation.
    static func base64URLEncode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func headerText(_ compact: String) -> String {
        String(decoding: base64URLDecode(segments(compact)[0]) ?? [], as: UTF8.self)
    }

    static func payloadText(_ compact: String) -> String {
        String(decoding: base64URLDecode(segments(compact)[1]) ?? [], as: UTF8.self)
    }

    /// Signs `payload` under the library's fixed header with the demo key.
    static func sign(payload json: String) throws -> String {
        try JWSEncoder(key: Demo.key).sign(payload: Array(json.utf8))
    }

    /// Signs an arbitrary header and payload (both JSON text) with the demo key: raw r || s.
    static func sign(header: String, payload: String) throws -> String {
        let input = base64URLEncode(Array(header.utf8)) + "." + base64URLEncode(Array(payload.utf8))
        let signature = try Demo.key.privateKey.signature(for: Array(input.utf8))
        return input + "." + base64URLEncode(signature.rawRepresentation)
    }

    /// The error `body` throws, as a `VerificationError` (nil when it does not throw).
    static func verificationError(_ body: () throws(VerificationError) -> Void) -> VerificationError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    static func verifyError(_ compact: String, as kind: JWSKind? = nil) -> VerificationError? {
        verificationError { () throws(VerificationError) in _ = try verifier.verify(compact, as: kind) }
    }

    /// The error `body` throws, as a `RequestValidationError`.
    static func validationError(_ body: () throws -> Void) -> RequestValidationError? {
        do {
            try body()
            return nil
        } catch let error as RequestValidationError {
            return error
        } catch {
            Issue.record("expected a RequestValidationError, got \(error)")
            return nil
        }
    }
}
