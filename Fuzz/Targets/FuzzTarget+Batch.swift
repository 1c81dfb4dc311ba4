import Foundation
import OfferJSON
import OfferSigning

extension FuzzTarget {
    /// Processes one batch line with the demo signer. The result must be one JSON object naming
    /// the line; when it says the line was signed, what it carries must verify (as of its signing time).
    static func fuzzBatch(_ input: [UInt8]) {
        let result = BatchSigner(signer: FuzzFixtures.signer).process(line: input, lineNumber: 7)
        let output: JSONValue
        do {
            output = try JSONValue.parse(result.json)
        } catch {
            fatalError("fuzz invariant broken: the result line is not JSON (\(error.message))")
        }
        check(output["line"] == .number("7"), "the result does not name its line")
        check(result.succeeded == (output["error"] == nil), "succeeded and the error member disagree")
        guard result.succeeded else { return }
        // A line may sign with an explicit `issuedAt` or `timestamp` up to the year 9999 (for reproducible
        // output), while verification refuses times more than a day ahead of its clock: verify as of
        // the time the line was signed at.
        let signedAt: Date
        if let iat = output["issuedAt"]?.int64 {
            signedAt = Date(timeIntervalSince1970: TimeInterval(iat))
        } else if let timestamp = output["timestamp"]?.int64 {
            signedAt = Date(timeIntervalSince1970: TimeInterval(timestamp / 1000))
        } else {
            signedAt = Date()
        }
        let verifier = JWSVerifier(key: FuzzFixtures.key, clock: .fixed(signedAt))
        if case .string(let jws)? = output["jws"] ?? output["token"] {
            do {
                _ = try verifier.verify(jws)
            } catch {
                fatalError("fuzz invariant broken: a signed line does not verify: \(error)")
            }
        } else if case .string(let signature)? = output["signature"] {
            let legacy = LegacyPromotionalOfferSignature(
                keyId: FuzzFixtures.keyId, nonce: UUID(uuidString: output.string("nonce")) ?? UUID(),
                timestamp: output["timestamp"]?.int64 ?? 0, signature: signature,
                productId: output.string("productId"), offerIdentifier: output.string("offerIdentifier"),
                appAccountToken: output.string("appAccountToken"))
            do {
                try verifier.verify(legacy, bundleId: FuzzFixtures.bundleId)
            } catch {
                fatalError("fuzz invariant broken: a signed legacy line does not verify: \(error)")
            }
        } else {
            fatalError("fuzz invariant broken: a signed line carries no jws, token or signature")
        }
    }
}

extension JSONValue {
    /// The string member `name`, or "" (absent or not a string).
    fileprivate func string(_ name: String) -> String {
        if case .string(let text)? = self[name] { return text }
        return ""
    }
}
