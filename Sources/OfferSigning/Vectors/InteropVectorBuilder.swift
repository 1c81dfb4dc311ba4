import Foundation
import OfferJSON

/// Produces ``InteropVector``s by running the real signers with a fixed nonce and clock. The
/// project's own vectors under `Tests/` and any exported set come from this one builder.
public struct InteropVectorBuilder: Sendable {
    /// A case to produce: a name, the inputs, and the fixed nonce and time.
    public struct Case: Hashable, Sendable {
        public var name: String
        public var inputs: InteropVector.Inputs
        public var nonce: UUID
        /// Whole seconds for JWS kinds; the legacy timestamp is `time × 1000`.
        public var time: Int64

        public init(name: String, inputs: InteropVector.Inputs, nonce: UUID, time: Int64) {
            self.name = name
            self.inputs = inputs
            self.nonce = nonce
            self.time = time
        }
    }

    public let signer: OfferSigner

    public init(signer: OfferSigner) {
        self.signer = signer
    }

    /// Signs `testCase` and records every intermediate.
    public func vector(for testCase: Case) throws -> InteropVector {
        let date = Date(timeIntervalSince1970: TimeInterval(testCase.time))
        let nonce = testCase.nonce.lowercasedString
        var expected = InteropVector.Expected(signature: "")
        var vector = InteropVector(
            name: testCase.name, kind: testCase.inputs.kind, inputs: testCase.inputs, keyId: signer.key.keyId,
            issuerId: signer.issuerId, bundleId: signer.bundleId, nonce: nil, iat: nil, timestamp: nil,
            publicKeyPem: signer.key.publicKeyPEM, expected: expected)
        let jws: String
        switch testCase.inputs {
        case .promotionalOffer(let request):
            jws = try signer.sign(request, nonce: testCase.nonce, issuedAt: date).serialization
            vector.nonce = nonce
        case .introductoryOfferEligibility(let request):
            jws = try signer.sign(request, nonce: testCase.nonce, issuedAt: date).serialization
            vector.nonce = nonce
        case .advancedCommerce(let request):
            jws = try signer.sign(request, nonce: testCase.nonce, issuedAt: date).serialization
            vector.nonce = nonce
            expected.requestJson = String(decoding: request.jsonBytes, as: UTF8.self)
        case .serverAPIToken(let lifetime):
            jws = try signer.serverAPIToken(lifetime: lifetime, issuedAt: date).token
        case .connectAPIToken(let lifetime, let scope, let individual):
            let tokenSigner = try ConnectAPITokenSigner(
                key: signer.key, issuer: individual ? .individual : .team(issuerId: signer.issuerId))
            jws = try tokenSigner.token(lifetime: lifetime, scope: scope, issuedAt: date).token
        case .legacyPromotionalOffer(let request):
            let timestamp = testCase.time * 1000
            let signature = try signer.sign(request, nonce: testCase.nonce, timestamp: timestamp)
            let message = request.message(
                bundleId: signer.bundleId, keyId: signer.key.keyId, appAccountToken: request.normalizedAppAccountToken,
                nonce: testCase.nonce, timestamp: timestamp)
            expected.message = String(decoding: message, as: UTF8.self)
            expected.messageHex = Hex.string(message)
            expected.signature = signature.signature
            vector.nonce = nonce
            vector.timestamp = timestamp
            vector.expected = expected
            return vector
        }
        let parts = jws.split(separator: ".").map(String.init)
        vector.iat = testCase.time
        expected.headerSegment = parts[0]
        expected.payloadSegment = parts[1]
        expected.signingInput = parts[0] + "." + parts[1]
        expected.signature = parts[2]
        expected.jws = jws
        expected.headerJson = Base64.decode(Array(parts[0].utf8), urlSafe: true).map {
            String(decoding: $0, as: UTF8.self)
        }
        expected.payloadJson = Base64.decode(Array(parts[1].utf8), urlSafe: true).map {
            String(decoding: $0, as: UTF8.self)
        }
        vector.expected = expected
        return vector
    }

    /// Rebuilds `vector` with this builder's signer and reports the first byte-level difference
    /// in the deterministic parts (everything but the randomised ECDSA signature).
    public func mismatch(in vector: InteropVector) throws -> String? {
        guard let nonce = vector.nonce.flatMap(UUID.init(uuidString:)) ?? (vector.nonce == nil ? UUID() : nil) else {
            return "nonce is not a UUID"
        }
        let time = vector.iat ?? (vector.timestamp ?? 0) / 1000
        let fresh = try self.vector(for: Case(name: vector.name, inputs: vector.inputs, nonce: nonce, time: time))
        let pairs: [(String, String?, String?)] = [
            ("headerJson", vector.expected.headerJson, fresh.expected.headerJson),
            ("payloadJson", vector.expected.payloadJson, fresh.expected.payloadJson),
            ("requestJson", vector.expected.requestJson, fresh.expected.requestJson),
            ("headerSegment", vector.expected.headerSegment, fresh.expected.headerSegment),
            ("payloadSegment", vector.expected.payloadSegment, fresh.expected.payloadSegment),
            ("signingInput", vector.expected.signingInput, fresh.expected.signingInput),
            ("message", vector.expected.message, fresh.expected.message),
            ("messageHex", vector.expected.messageHex, fresh.expected.messageHex),
        ]
        for (field, committed, rebuilt) in pairs where committed != rebuilt {
            return
                "\(vector.name): \(field) differs\n  expected: \(committed ?? "nil")\n  rebuilt:  \(rebuilt ?? "nil")"
        }
        return nil
    }
}
