import Foundation
import OfferSigning
import Testing

/// Freshly produced signatures, verified by implementations that are not ours.
@Suite("Independent verification")
struct InteropTests {
    /// Random inputs for every kind, signed now with random nonces.
    static func freshVectors(count: Int) throws -> InteropVectorSet {
        let builder = InteropVectorBuilder(signer: try Demo.signer())
        var vectors: [InteropVector] = []
        let now = Int64(Date().timeIntervalSince1970)
        for round in 0..<count {
            for standard in InteropVectorBuilder.standardCases {
                var testCase = standard
                testCase.name = "\(standard.name)#\(round)"
                testCase.nonce = NonceGenerator.random.next()
                testCase.time = now + Int64(round)
                testCase.inputs = Self.vary(standard.inputs, round: round)
                vectors.append(try builder.vector(for: testCase))
            }
        }
        return InteropVectorSet(vectors: vectors)
    }

    /// Changes the identifiers so each round signs different bytes (including non-ASCII text).
    static func vary(_ inputs: InteropVector.Inputs, round: Int) -> InteropVector.Inputs {
        let suffix = ["", ".ü", ".月\(round)", ".\"q\"", ".\\b"][round % 5] + ".\(round)"
        switch inputs {
        case .promotionalOffer(var request):
            request.productId += suffix
            request.transactionId = round.isMultiple(of: 2) ? nil : "\(2_000_000_000 + round)"
            return .promotionalOffer(request)
        case .introductoryOfferEligibility(var request):
            request.productId += suffix
            request.allowIntroductoryOffer = round.isMultiple(of: 2)
            return .introductoryOfferEligibility(request)
        case .legacyPromotionalOffer(var request):
            request.offerIdentifier += suffix
            request.appAccountToken = round.isMultiple(of: 3) ? "" : UUID().uuidString
            return .legacyPromotionalOffer(request)
        case .advancedCommerce, .serverAPIToken, .connectAPIToken:
            return inputs
        }
    }

    static func write(_ set: InteropVectorSet, to directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("vectors.json")
        try JSONEncoder().encode(set).write(to: url)
        return url
    }

    @Test(
        "Python cryptography and PyJWT verify the committed vectors and fresh signatures",
        .enabled(ExternalTool.pythonReason) { await ExternalTool.pythonAvailable || ExternalTool.isCI })
    func pythonVerifies() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fresh = try Self.freshVectors(count: 10)
        let freshURL = try Self.write(fresh, to: directory)
        let result = try await ExternalTool.pythonVerifyVectors([VectorTests.path.path, freshURL.path])
        let expectedCount = fresh.vectors.count + (try VectorTests.committed().vectors.count)
        #expect(result.status == 0, "python verifier failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("interop: \(expectedCount) passed, 0 failed"), "\(result.stdout)")
    }

    @Test(
        "the Python verifier rejects a vector with one byte changed",
        .enabled(ExternalTool.pythonReason) { await ExternalTool.pythonAvailable || ExternalTool.isCI })
    func pythonRejectsTampering() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var set = try Self.freshVectors(count: 1)
        set.vectors = Array(set.vectors.prefix(1))
        set.vectors[0].bundleId = "com.example.other"
        let url = try Self.write(set, to: directory)
        let result = try await ExternalTool.pythonVerifyVectors([url.path])
        #expect(result.status != 0)
        #expect(result.stdout.contains("0 passed, 1 failed"), "\(result.stdout)")
    }

    @Test(
        "openssl dgst verifies fresh legacy signatures over the exact message bytes",
        .enabled(ExternalTool.opensslReason) { await ExternalTool.opensslAvailable || ExternalTool.isCI })
    func opensslVerifiesLegacy() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let publicKey = directory.appendingPathComponent("public.pem")
        try Demo.key.publicKeyPEM.write(to: publicKey, atomically: true, encoding: .utf8)
        let signer = try Demo.signer()
        let separator = "\u{2063}"
        for round in 0..<12 {
            let request = LegacyPromotionalOfferRequest(
                productId: "com.example.offerkit.月額.\(round)", offerIdentifier: "WINBACK\(round)",
                appAccountToken: round.isMultiple(of: 2) ? "" : UUID().uuidString)
            let signature = try signer.sign(request)
            // The message is rebuilt here from docs/formats.md §2, not taken from the library.
            let message = [
                Demo.bundleId, Demo.keyId, request.productId, request.offerIdentifier,
                request.appAccountToken.lowercased(), signature.nonceString, String(signature.timestamp),
            ].joined(separator: separator)
            let der = Array(Data(base64Encoded: signature.signature)!)
            let result = try await ExternalTool.opensslVerify(
                publicKey: publicKey, signatureDER: der, message: Data(message.utf8), in: directory)
            #expect(result.status == 0, "openssl rejected round \(round): \(result.stdout) \(result.stderr)")
            #expect(result.stdout.contains("Verified OK"))

            // And the check is real: one changed byte fails.
            let tampered = try await ExternalTool.opensslVerify(
                publicKey: publicKey, signatureDER: der, message: Data((message + "0").utf8), in: directory)
            #expect(tampered.status != 0)
        }
    }

    @Test(
        "openssl dgst verifies fresh JWS signatures of every kind",
        .enabled(ExternalTool.opensslReason) { await ExternalTool.opensslAvailable || ExternalTool.isCI })
    func opensslVerifiesJWS() async throws {
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let publicKey = directory.appendingPathComponent("public.pem")
        try Demo.key.publicKeyPEM.write(to: publicKey, atomically: true, encoding: .utf8)
        let fresh = try Self.freshVectors(count: 1)
        for vector in fresh.vectors where vector.kind != .legacyPromotionalOffer {
            let jws = vector.expected.jws!
            let parts = jws.split(separator: ".")
            let result = try await ExternalTool.opensslVerify(
                publicKey: publicKey,
                signatureDER: ExternalTool.derSignature(raw: ExternalTool.base64URLDecode(parts[2])),
                message: Data("\(parts[0]).\(parts[1])".utf8), in: directory)
            #expect(result.status == 0, "\(vector.name): \(result.stdout) \(result.stderr)")
        }
    }
}
