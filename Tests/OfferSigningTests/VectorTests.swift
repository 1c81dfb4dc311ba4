import Foundation
import OfferSigning
import Testing

/// The committed interop vectors (`Tests/Vectors/`, written by `offerkit vectors`) are rebuilt
/// from their own inputs, nonce and clock, byte for byte, and their signatures verify.
@Suite("Interop vectors")
struct VectorTests {
    static let folder = Demo.packageRoot.appendingPathComponent("Tests/Vectors")
    static let path = folder.appendingPathComponent(InteropVectorFile.vectorsName)
    static let regenerate = "regenerate with `swift run offerkit vectors --out Tests/Vectors --force`"

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
        #expect(set.vectors.count == InteropVectorBuilder.standardCases.count)
        for (vector, standard) in zip(set.vectors, InteropVectorBuilder.standardCases) {
            #expect(vector.inputs == standard.inputs, "\(vector.name): inputs differ from the standard case")
        }
    }

    @Test("the committed README and public key are what the builder writes for the demo key, byte for byte")
    func readmeAndPublicKeyAreCurrent() throws {
        let files = try InteropVectorBuilder(signer: try Demo.signer()).standardFiles()
        #expect(
            files.map(\.name)
                == [InteropVectorFile.vectorsName, InteropVectorFile.readmeName, InteropVectorFile.publicKeyName])
        for file in files where file.name != InteropVectorFile.vectorsName {
            let committed = try Data(contentsOf: Self.folder.appendingPathComponent(file.name))
            #expect(committed == file.contents, "Tests/Vectors/\(file.name) is out of date: \(Self.regenerate)")
        }
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(onDisk == files.map(\.name).sorted(), "Tests/Vectors/ holds other files")
    }

    @Test("the JSON file's deterministic parts equal a fresh build, and its text is the encoder's")
    func jsonMatchesFreshBuild() throws {
        let committedData = try Data(contentsOf: Self.path)
        let committed = try Self.committed()
        // Re-encoding what was read gives the same bytes: the file is the encoder's output, not hand-edited.
        #expect(try committed.jsonData() == committedData, "\(Self.regenerate)")
        let fresh = InteropVectorSet(
            vectors: try InteropVectorBuilder.standardCases.map(InteropVectorBuilder(signer: try Demo.signer()).vector))
        #expect(fresh.about == committed.about)
        #expect(fresh.vectors.count == committed.vectors.count)
        for (old, new) in zip(committed.vectors, fresh.vectors) {
            var old = old
            var new = new
            old.expected.signature = ""
            new.expected.signature = ""
            old.expected.jws = nil
            new.expected.jws = nil
            #expect(old == new, "\(old.name) differs from a fresh build: \(Self.regenerate)")
        }
    }

    @Test("the README names the key, every case, and the file names")
    func readmeContent() throws {
        let set = try Self.committed()
        let readme = set.readme()
        #expect(readme.contains("`DEMOKEY123`"))
        #expect(readme.contains(Demo.issuerId) && readme.contains(Demo.bundleId))
        for vector in set.vectors { #expect(readme.contains("| `\(vector.name)` |")) }
        for name in [InteropVectorFile.vectorsName, InteropVectorFile.publicKeyName] { #expect(readme.contains(name)) }
        #expect(!readme.contains("PRIVATE KEY"))
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
                #expect(throws: Never.self) { try verifier.verify(signature, bundleId: vector.bundleId) }
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
