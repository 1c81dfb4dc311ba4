import Foundation
import OfferSigning
import Testing

/// The committed interop vectors (`Tests/Vectors/offerkit-vectors.json`) are rebuilt from their
/// own inputs, nonce and clock, byte for byte, and their signatures verify.
@Suite("Interop vectors")
struct VectorTests {
    static let path = Demo.packageRoot.appendingPathComponent("Tests/Vectors/offerkit-vectors.json")

    static func committed() throws -> InteropVectorSet {
        try JSONDecoder().decode(InteropVectorSet.self, from: Data(contentsOf: path))
    }

    @Test("every committed case rebuilds to the same bytes")
    func rebuildsByteForByte() throws {
        let set = try Self.committed()
        let builder = InteropVectorBuilder(signer: try Demo.signer())
        #expect(set.vectors.count >= 2 * InteropVector.Kind.allCases.count)
        for vector in set.vectors {
            let mismatch = try builder.mismatch(in: vector)
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    @Test("the committed file holds exactly the standard cases")
    func fileIsCurrent() throws {
        let set = try Self.committed()
        let names = set.vectors.map(\.name)
        #expect(names == InteropVectorBuilder.standardCases.map(\.name))
        for (vector, standard) in zip(set.vectors, InteropVectorBuilder.standardCases) {
            #expect(vector.inputs == standard.inputs, "\(vector.name): inputs differ from the standard case")
        }
    }

    @Test("committed signatures and fresh signatures verify")
    func signaturesVerify() throws {
        let set = try Self.committed()
        let verifier = JWSVerifier(key: Demo.key)
        for vector in set.vectors {
            #expect(vector.publicKeyPem == Demo.key.publicKeyPEM)
            if vector.kind == .legacyPromotionalOffer {
                guard case .legacyPromotionalOffer(let request) = vector.inputs else { continue }
                let signature = LegacyPromotionalOfferSignature(
                    keyId: vector.keyId, nonce: UUID(uuidString: vector.nonce!)!, timestamp: vector.timestamp!,
                    signature: vector.expected.signature, productId: request.productId,
                    offerIdentifier: request.offerIdentifier, appAccountToken: request.appAccountToken.lowercased())
                #expect(throws: Never.self) { try verifier.verify(signature, bundleID: vector.bundleId) }
            } else {
                let verified = try verifier.verify(vector.expected.jws!)
                #expect(verified.payloadJSON == vector.expected.payloadJson)
            }
        }
        // A fresh signature over the same inputs differs (ECDSA is randomised) but verifies too.
        let builder = InteropVectorBuilder(signer: try Demo.signer())
        for standard in InteropVectorBuilder.standardCases where standard.inputs.kind != .legacyPromotionalOffer {
            let fresh = try builder.vector(for: standard)
            _ = try verifier.verify(fresh.expected.jws!)
        }
    }
}
