import Foundation
import Testing

@testable import OfferSigning

/// `JWSVerifier(expected:)`: every credential given is compared with what a JWS or legacy
/// signature names (`kid`, `iss`, `bid`; a legacy signature's `keyId` and bundle ID), every
/// difference named at once; one the artifact cannot carry is refused, never ignored. PyJWT agrees
/// where it compares the same thing (`iss` with `issuer=`, `kid` through a key set).
@Suite("JWSVerifier: expected credentials")
struct ExpectedCredentialsTests {
    static let otherKeyId = "MYKEY00001"
    static let otherIssuerId = "00000000-0000-4000-8000-000000000000"
    static let otherBundleId = "com.example.other"

    /// One JWS of each kind OfferKit signs, with the credentials it carries (`nil`: none).
    struct Signed: CustomTestStringConvertible {
        var name: String
        var jws: String
        var issuerId: String?
        var bundleId: String?

        var testDescription: String { name }
    }

    static func signed() throws -> [Signed] {
        let signer = try Demo.signer()
        let request = AdvancedCommerce.InAppRequest.oneTimeCharge(AdvancedCommerceTests.oneTimeCharge())
        let team = try ConnectAPITokenSigner(key: Demo.key, issuer: .team(issuerId: Demo.issuerId))
        let individual = try ConnectAPITokenSigner(key: Demo.key, issuer: .individual)
        return [
            Signed(
                name: "promotional-offer",
                jws: try signer.sign(PromotionalOfferRequest(productId: "p", offerIdentifier: "o")).serialization,
                issuerId: Demo.issuerId, bundleId: Demo.bundleId),
            Signed(
                name: "introductory-offer-eligibility",
                jws: try signer.sign(
                    IntroductoryOfferEligibilityRequest(
                        productId: "p", allowIntroductoryOffer: true, transactionId: "1")
                ).serialization, issuerId: Demo.issuerId, bundleId: Demo.bundleId),
            Signed(
                name: "advanced-commerce", jws: try signer.sign(request).serialization, issuerId: Demo.issuerId,
                bundleId: Demo.bundleId),
            Signed(
                name: "server-api-token", jws: try signer.serverAPIToken().token, issuerId: Demo.issuerId,
                bundleId: Demo.bundleId),
            Signed(name: "connect-api-token (team)", jws: try team.token().token, issuerId: Demo.issuerId),
            Signed(name: "connect-api-token (individual)", jws: try individual.token().token),
        ]
    }

    static func verify(_ jws: String, _ expected: ExpectedCredentials) -> VerificationError? {
        TestJWS.verificationError { () throws(VerificationError) in
            _ = try JWSVerifier(key: Demo.key, expected: expected).verify(jws)
        }
    }

    @Test("the right credentials verify; each other one is named, all at once, with what was expected")
    func eachKind() throws {
        for item in try Self.signed() {
            let right = ExpectedCredentials(keyId: Demo.keyId, issuerId: item.issuerId, bundleId: item.bundleId)
            #expect(Self.verify(item.jws, right) == nil, "\(item.name)")
            #expect(Self.verify(item.jws, ExpectedCredentials()) == nil, "\(item.name): nothing expected")

            #expect(
                Self.verify(item.jws, ExpectedCredentials(keyId: Self.otherKeyId))
                    == .credentialMismatch([
                        .init(credential: .keyId, field: "kid", found: Demo.keyId, expected: Self.otherKeyId)
                    ]), "\(item.name)")
            var all = ExpectedCredentials(keyId: Self.otherKeyId)
            var mismatches = [
                ExpectedCredentials.Mismatch(
                    credential: .keyId, field: "kid", found: Demo.keyId, expected: Self.otherKeyId)
            ]
            if let issuerId = item.issuerId {
                all.issuerId = Self.otherIssuerId
                mismatches.append(
                    .init(credential: .issuerId, field: "iss", found: issuerId, expected: Self.otherIssuerId))
            }
            if let bundleId = item.bundleId {
                all.bundleId = Self.otherBundleId
                mismatches.append(
                    .init(credential: .bundleId, field: "bid", found: bundleId, expected: Self.otherBundleId))
            }
            let error = Self.verify(item.jws, all)
            #expect(error == .credentialMismatch(mismatches), "\(item.name)")
            let message = error?.localizedDescription ?? ""
            #expect(message.contains(#"kid is "DEMOKEY123", expected "MYKEY00001""#), "\(message)")
            if item.bundleId != nil {
                #expect(message.contains(#"bid is "com.example.offerkit.demo", expected "com.example.other""#))
            }
        }
    }

    @Test("a credential the JWS cannot carry is refused with the reason, even when everything else matches")
    func notApplicable() throws {
        let signed = Dictionary(uniqueKeysWithValues: try Self.signed().map { ($0.name, $0) })
        let team = try #require(signed["connect-api-token (team)"])
        let individual = try #require(signed["connect-api-token (individual)"])
        for item in [team, individual] {
            let error = Self.verify(item.jws, ExpectedCredentials(keyId: Demo.keyId, bundleId: Demo.bundleId))
            guard case .credentialNotApplicable(.bundleId, let reason)? = error else {
                Issue.record("\(item.name): \(String(describing: error))")
                continue
            }
            #expect(reason.contains("App Store Connect"))
            #expect(error?.field == "bid")
        }
        let error = Self.verify(individual.jws, ExpectedCredentials(issuerId: Demo.issuerId))
        guard case .credentialNotApplicable(.issuerId, let reason)? = error else {
            Issue.record("individual key, issuer ID: \(String(describing: error))")
            return
        }
        #expect(reason.contains("individual"))
        // Applicability is decided before values are compared: the refusal names the usage problem.
        let both = Self.verify(team.jws, ExpectedCredentials(keyId: Self.otherKeyId, bundleId: Demo.bundleId))
        if case .credentialNotApplicable(.bundleId, _)? = both {} else { Issue.record("\(String(describing: both))") }
    }

    @Test("a JWS that does not verify is refused for that, whatever credentials are expected")
    func verificationComesFirst() throws {
        let jws = try #require(try Self.signed().first).jws
        let parts = TestJWS.segments(jws)
        let tampered = parts[0] + "." + TestJWS.base64URLEncode(Array("{}".utf8)) + "." + parts[2]
        #expect(Self.verify(tampered, ExpectedCredentials(keyId: Self.otherKeyId)) == .signatureMismatch)
    }

    @Test("legacy signatures: keyId and the bundle ID signed are compared; an issuer ID is refused")
    func legacy() throws {
        let signature = try Demo.signer().sign(
            LegacyPromotionalOfferRequest(productId: "p", offerIdentifier: "o"), nonce: TestJWS.fixedNonce)
        func verify(_ expected: ExpectedCredentials, bundleId: String = Demo.bundleId) -> VerificationError? {
            TestJWS.verificationError { () throws(VerificationError) in
                try JWSVerifier(key: Demo.key, expected: expected).verify(signature, bundleId: bundleId)
            }
        }
        #expect(verify(ExpectedCredentials()) == nil)
        #expect(verify(ExpectedCredentials(keyId: Demo.keyId, bundleId: Demo.bundleId)) == nil)
        #expect(
            verify(ExpectedCredentials(keyId: Self.otherKeyId, bundleId: Self.otherBundleId))
                == .credentialMismatch([
                    .init(credential: .keyId, field: "keyId", found: Demo.keyId, expected: Self.otherKeyId),
                    .init(credential: .bundleId, field: "bundleId", found: Demo.bundleId, expected: Self.otherBundleId),
                ]))
        guard
            case .credentialNotApplicable(.issuerId, let reason)? = verify(ExpectedCredentials(issuerId: Demo.issuerId))
        else {
            Issue.record("an issuer ID was not refused for a legacy signature")
            return
        }
        #expect(reason.contains("legacy"))
        // Checked with another bundle ID, the signature itself fails first.
        #expect(
            verify(ExpectedCredentials(bundleId: Self.otherBundleId), bundleId: Self.otherBundleId)
                == .signatureMismatch)
    }

    @Test("each new error names its field and reads as a sentence")
    func messages() {
        let mismatch = ExpectedCredentials.Mismatch(credential: .issuerId, field: "iss", found: nil, expected: "x")
        for error: VerificationError in [
            .credentialMismatch([mismatch]), .credentialNotApplicable(.bundleId, reason: "it has no bid claim"),
        ] {
            let message = error.localizedDescription
            #expect(message.contains(error.field ?? "?"), "\(message)")
            #expect(message.hasSuffix("."))
        }
        #expect(mismatch.description == #"iss is missing, expected "x""#)
        let control = ExpectedCredentials.Mismatch(
            credential: .bundleId, field: "bid", found: "a\nb" + String(repeating: "c", count: 100), expected: "y")
        #expect(!control.description.contains("\n") && control.description.count < 100)
    }

    /// The cases PyJWT can judge too: `kid` (looked up in a key set holding only the expected key
    /// ID) and `iss` (`issuer=`). PyJWT has no check of `bid`.
    struct PyJWTCase: Encodable {
        var name: String
        var token: String
        var aud: String
        var pem: String
        var kid: String?
        var iss: String?
    }

    @Test(
        "PyJWT accepts and refuses the same kid and iss expectations",
        .enabled(ExternalTool.pythonReason) { await ExternalTool.pythonAvailable || ExternalTool.isCI })
    func pyJWTAgrees() async throws {
        var cases: [(PyJWTCase, ExpectedCredentials)] = []
        for item in try Self.signed() {
            let payload = try JSONSerialization.jsonObject(with: Data(TestJWS.payloadText(item.jws).utf8))
            let aud = (payload as? [String: Any])?["aud"] as? String
            let expectations: [(String, String?, String?)] =
                [("right kid", Demo.keyId, nil), ("other kid", Self.otherKeyId, nil)]
                + (item.issuerId == nil
                    ? [] : [("right iss", nil, Demo.issuerId), ("other iss", nil, Self.otherIssuerId)])
            for (label, kid, iss) in expectations {
                cases.append(
                    (
                        PyJWTCase(
                            name: "\(item.name): \(label)", token: item.jws, aud: aud ?? "", pem: Demo.publicKeyPath,
                            kid: kid, iss: iss),
                        ExpectedCredentials(keyId: kid, issuerId: iss)
                    ))
            }
        }
        let script = Demo.packageRoot.appendingPathComponent("Tests/Interop/verify_expected_credentials.py").path
        let result = try await ExternalTool.run(
            ExternalTool.python, [script], stdin: try JSONEncoder().encode(cases.map(\.0)))
        try #require(result.status == 0, "PyJWT did not run:\n\(result.stderr)")
        struct Answer: Decodable {
            var name: String
            var accepted: Bool
            var error: String?
        }
        let answers = try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Answer.self, from: Data($0.utf8))
        }
        #expect(answers.map(\.name) == cases.map(\.0.name))
        for ((testCase, expected), answer) in zip(cases, answers) {
            let accepted = Self.verify(testCase.token, expected) == nil
            #expect(
                accepted == answer.accepted,
                "\(testCase.name): OfferKit \(accepted ? "accepts" : "refuses"), PyJWT \(answer.error ?? "accepts")")
        }
        #expect(answers.contains { $0.accepted } && answers.contains { !$0.accepted })
    }
}
