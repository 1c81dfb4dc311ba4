import Foundation
import OfferAppleVerification
import Testing
import X509

/// The cases of `Tests/Fixtures/apple-signed/cases.json` (made by `make_apple_signed.py` there):
/// signed payloads of each kind on a test chain, and broken variants, with what must happen.
struct AppleSignedCases: Decodable {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var kind: String
        var jws: String
        var environment: String
        var bundleId: String?
        var appAppleId: Int64?
        /// "accept", or the name of the `AppleVerificationError` case.
        var expect: String
        /// Why Apple's own library answers otherwise, when it does.
        var appleDiffers: String?

        var testDescription: String { name }
    }

    var roots: [String: String]
    var cases: [Case]

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let path = packageRoot.appendingPathComponent("Tests/Fixtures/apple-signed/cases.json")

    static let loaded: AppleSignedCases = {
        do {
            return try JSONDecoder().decode(AppleSignedCases.self, from: Data(contentsOf: path))
        } catch {
            fatalError("\(path.path) does not load: \(error)")
        }
    }()

    static var testRoot: Certificate {
        get throws { try #require(AppleRootCertificates.certificates(pem: loaded.roots["test"] ?? "").first) }
    }

    static func verifier(for testCase: Case) throws -> AppleSignedDataVerifier {
        try AppleSignedDataVerifier(
            rootCertificates: [testRoot], bundleId: testCase.bundleId,
            environment: try #require(AppleEnvironment(rawValue: testCase.environment)),
            appAppleId: testCase.appAppleId)
    }

    /// "accept", or the refusal's case name (`missingAppleExtension`, …).
    static func outcome(of testCase: Case) async throws -> String {
        let verifier = try verifier(for: testCase)
        let kind = try #require(AppleSignedDataKind(rawValue: testCase.kind))
        do {
            _ = try await verifier.verify(testCase.jws, as: kind)
            return "accept"
        } catch {
            return caseName(error)
        }
    }

    static func caseName(_ error: any Error) -> String {
        let described = String(describing: error)
        return String(described.prefix(while: { $0 != "(" }))
    }
}
