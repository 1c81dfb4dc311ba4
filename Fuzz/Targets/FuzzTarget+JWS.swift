import Crypto
import Foundation
import OfferJSON
import OfferSigning

extension FuzzTarget {
    /// Verifies the input as a compact JWS against the demo key; one that verifies must verify
    /// again as the kind it was found to be.
    static func fuzzJWS(_ input: [UInt8]) {
        let compact = String(decoding: input, as: UTF8.self)
        let verified: VerifiedJWS
        do {
            verified = try FuzzFixtures.verifier.verify(compact)
        } catch {
            _ = error.localizedDescription
            return
        }
        check(
            (try? FuzzFixtures.verifier.verify(compact, as: verified.kind)) != nil, "a JWS does not verify as its kind")
    }

    /// Signs the input with the demo key (header `{"alg":"ES256","kid":"DEMOKEY123","typ":"JWT"}`,
    /// or the bytes before the first NUL), so that verification gets past the signature.
    static func fuzzJWSClaims(_ input: [UInt8]) {
        let header: ArraySlice<UInt8>
        let payload: ArraySlice<UInt8>
        if let nul = input.firstIndex(of: 0) {
            header = input[..<nul]
            payload = input[(nul + 1)...]
        } else {
            header = ArraySlice(#"{"alg":"ES256","kid":"DEMOKEY123","typ":"JWT"}"#.utf8)
            payload = input[...]
        }
        let signingInput = Base64.urlString(header) + "." + Base64.urlString(payload)
        guard let signature = try? FuzzFixtures.privateKey.signature(for: Array(signingInput.utf8)) else {
            fatalError("fuzz invariant broken: the demo key does not sign")
        }
        fuzzJWS(Array((signingInput + "." + Base64.urlString(signature.rawRepresentation)).utf8))
    }

    /// Decodes a legacy promotional offer signature (the JSON `offerkit sign promotional-offer-v1
    /// --format json` writes, `Codable` keys) and verifies it for the demo app.
    static func fuzzLegacySignature(_ input: [UInt8]) {
        do {
            let read = try LegacyPromotionalOfferSignature.read(json: input)
            try FuzzFixtures.verifier.verify(read.signature, bundleId: read.bundleId ?? FuzzFixtures.bundleId)
        } catch {
            _ = error.localizedDescription
        }
        guard let signature = try? JSONDecoder().decode(LegacyPromotionalOfferSignature.self, from: Data(input)) else {
            return
        }
        _ = signature.signatureBytes
        do {
            try FuzzFixtures.verifier.verify(signature, bundleId: FuzzFixtures.bundleId)
        } catch {
            _ = error.localizedDescription
        }
    }
}
