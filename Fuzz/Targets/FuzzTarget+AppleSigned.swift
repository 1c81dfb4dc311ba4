import OfferAppleVerification
import OfferJSON

extension FuzzTarget {
    /// `AppleCompactJWS(_:)` and the payload decoding of `AppleSignedDataVerifier`: a JWS the App
    /// Store signed (`verify-apple`, and later the Get Retention Message endpoint). Parsed, it holds
    /// a leaf and an intermediate certificate and a payload that is a JSON object within 64 KiB;
    /// every payload type decodes or refuses with a bounded message that never holds the input;
    /// the chain is not built here (that is swift-certificates' `Verifier`, async).
    static func fuzzAppleSigned(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let signed: AppleCompactJWS
        do {
            signed = try AppleCompactJWS(text)
        } catch {
            checkBounded(error, input: text)
            return
        }
        check(text.utf8.count <= AppleCompactJWS.maximumBytes, "a JWS over the limit was parsed")
        guard case .object? = try? JSONValue.parse(signed.payloadBytes) else {
            check(false, "a parsed payload is not a JSON object")
            return
        }
        do {
            _ = try AppleSignedDataVerifier.signedDate(of: signed)
        } catch {
            checkBounded(error, input: text)
        }
        decodeAll(signed, input: text)
    }

    private static func decodeAll(_ signed: AppleCompactJWS, input: String) {
        func attempt<T: Decodable>(_ type: T.Type) {
            do {
                _ = try AppleSignedDataVerifier.decode(type, from: signed)
            } catch {
                checkBounded(error, input: input)
            }
        }
        attempt(JWSTransactionDecodedPayload.self)
        attempt(JWSRenewalInfoDecodedPayload.self)
        attempt(ResponseBodyV2DecodedPayload.self)
        attempt(DecodedRealtimeRequestBody.self)
    }

    private static func checkBounded(_ error: any Error, input: String) {
        let message = error.localizedDescription
        check(!message.isEmpty && message.count <= 2_000, "an unbounded message: \(message.count) characters")
        if input.utf8.count >= 64 {
            check(!message.contains(input), "a message holds the input")
        }
    }
}
