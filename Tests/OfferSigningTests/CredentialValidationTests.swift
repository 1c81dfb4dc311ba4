import Foundation
import OfferSigning
import Testing

extension KeyLoadingTests {
    @Suite("Credential validation")
    struct Credentials {
        /// Asserts `body` throws `expected`, with `.field` and a message that names the field.
        func expectCredentialError(
            _ expected: CredentialError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
        ) {
            let error = #expect(throws: CredentialError.self, sourceLocation: sourceLocation) { try body() }
            guard let error else { return }
            #expect(error == expected, sourceLocation: sourceLocation)
            let field: String
            switch expected {
            case .invalidKeyId: field = "keyId"
            case .invalidIssuerId: field = "issuerId"
            case .invalidBundleId: field = "bundleId"
            }
            #expect(error.field == field, sourceLocation: sourceLocation)
            let message = error.localizedDescription
            #expect(
                message.hasPrefix(field), "message does not start with \(field): \(message)",
                sourceLocation: sourceLocation)
            #expect(
                message.contains("expected"), "message does not say what is expected: \(message)",
                sourceLocation: sourceLocation)
            #expect(message == error.errorDescription, sourceLocation: sourceLocation)
        }

        // MARK: keyId

        @Test("valid key IDs are accepted", arguments: ["2X9R4HXF34", "DEMOKEY123", "0000000000", "ABCDEFGHIJ"])
        func validKeyId(keyId: String) throws {
            let key = try SigningKey(contentsOfFile: KeyFixtures.path("p256.pkcs8.pem"), keyId: keyId)
            #expect(key.keyId == keyId)
            #expect(try SigningKey.generate(keyId: keyId).keyId == keyId)
        }

        @Test(
            "invalid key IDs throw invalidKeyID",
            arguments: [
                "2X9R4HXF3",  // 9 characters
                "2X9R4HXF345",  // 11 characters
                "2x9r4hxf34",  // lower-case
                "2X9R4hXF34",  // one lower-case letter
                "2X9R4-XF34",  // symbol
                "2X9R4_XF34",
                "2X9R4 XF34",  // space
                " 2X9R4HXF3",
                "2X9R4HXF34\n",  // trailing newline from a file
                "",  // empty
                "2X9R4HXF3Ä",  // non-ASCII letter (10 characters, 11 bytes)
                "２X9R4HXF34",  // full-width digit
                "SubscriptionKey_2X9R4HXF34",  // the file name
            ])
        func invalidKeyId(keyId: String) throws {
            let pem = try KeyFixtures.text("p256.pkcs8.pem")
            expectCredentialError(.invalidKeyId(keyId)) { _ = try SigningKey(pem: pem, keyId: keyId) }
            expectCredentialError(.invalidKeyId(keyId)) { _ = try SigningKey(bytes: Array(pem.utf8), keyId: keyId) }
            expectCredentialError(.invalidKeyId(keyId)) {
                _ = try SigningKey(contentsOfFile: KeyFixtures.path("p256.pkcs8.pem"), keyId: keyId)
            }
            expectCredentialError(.invalidKeyId(keyId)) {
                _ = try SigningKey(environmentVariable: "K", keyId: keyId, environment: ["K": pem])
            }
            expectCredentialError(.invalidKeyId(keyId)) { _ = try SigningKey.generate(keyId: keyId) }
        }

        @Test("the keyId message names keyId and quotes short values")
        func keyIdMessage() {
            let message = CredentialError.invalidKeyId("abc").localizedDescription
            #expect(message.contains("keyId"))
            #expect(message.contains("\"abc\""))
            #expect(message.contains("10"))
            #expect(CredentialError.invalidKeyId("abc").field == "keyId")
        }

        // MARK: issuerId

        @Test(
            "valid issuer IDs are accepted",
            arguments: ["57246542-96fe-1a63-e053-0824d011072a", "57246542-96FE-1A63-E053-0824D011072A", Demo.issuerId])
        func validIssuerId(issuerId: String) throws {
            let signer = try OfferSigner(key: Demo.key, issuerId: issuerId, bundleId: Demo.bundleId)
            #expect(signer.issuerId == issuerId)
            _ = try ConnectAPITokenSigner(key: Demo.key, issuer: .team(issuerId: issuerId))
        }

        @Test(
            "invalid issuer IDs throw invalidIssuerID",
            arguments: [
                "",  // empty
                "not-a-uuid",
                "57246542-96fe-1a63-e053-0824d011072",  // one digit short
                "57246542-96fe-1a63-e053-0824d011072aa",  // one digit long
                "5724654296fe1a63e0530824d011072a",  // no hyphens
                "57246542_96fe_1a63_e053_0824d011072a",
                "{57246542-96fe-1a63-e053-0824d011072a}",
                "57246542-96fe-1a63-e053-0824d011072g",  // not hex
                " 57246542-96fe-1a63-e053-0824d011072a",
                "57246542-96fe-1a63-e053-0824d011072a\n",
                "2X9R4HXF34",  // the key ID instead
            ])
        func invalidIssuerId(issuerId: String) {
            expectCredentialError(.invalidIssuerId(issuerId)) {
                _ = try OfferSigner(key: Demo.key, issuerId: issuerId, bundleId: Demo.bundleId)
            }
            expectCredentialError(.invalidIssuerId(issuerId)) {
                _ = try ConnectAPITokenSigner(key: Demo.key, issuer: .team(issuerId: issuerId))
            }
        }

        @Test("an individual App Store Connect key needs no issuer ID")
        func individualKey() throws {
            _ = try ConnectAPITokenSigner(key: Demo.key, issuer: .individual)
        }

        // MARK: bundleId

        @Test(
            "valid bundle IDs are accepted",
            arguments: [
                "com.example.app", "com.example.offerkit.demo", "io.my-company.App2",
                String(repeating: "a", count: 255),
            ])
        func validBundleId(bundleId: String) throws {
            let signer = try OfferSigner(key: Demo.key, issuerId: Demo.issuerId, bundleId: bundleId)
            #expect(signer.bundleId == bundleId)
        }

        @Test(
            "invalid bundle IDs throw invalidBundleID",
            arguments: [
                "",  // empty
                "com.example app",  // space
                " com.example.app",
                "com.example.app ",
                ".com.example.app",  // leading dot
                "com.example.app.",  // trailing dot
                "com..example.app",  // double dot
                "com.example/app",  // slash
                "com.example.app\n",
                "com.example.äpp",  // non-ASCII
                "com.example.app_1",  // underscore
                "com.example.*",  // wildcard
                String(repeating: "a", count: 256),  // over 255 characters
                "com." + String(repeating: "example.", count: 40) + "app",  // 327 characters
            ])
        func invalidBundleId(bundleId: String) {
            expectCredentialError(.invalidBundleId(bundleId)) {
                _ = try OfferSigner(key: Demo.key, issuerId: Demo.issuerId, bundleId: bundleId)
            }
        }

        @Test("issuerId is checked before bundleId")
        func issuerCheckedFirst() {
            expectCredentialError(.invalidIssuerId("x")) {
                _ = try OfferSigner(key: Demo.key, issuerId: "x", bundleId: "")
            }
        }

        @Test("long values are not echoed in full")
        func longValuesCapped() {
            let long = "com." + String(repeating: "example.", count: 40) + "app"
            let message = CredentialError.invalidBundleId(long).localizedDescription
            #expect(!message.contains(long))
            #expect(message.contains("\(long.count) characters"))
        }

        @Test("CredentialError is a LocalizedError with a message for each case")
        func messages() {
            for error in [CredentialError.invalidKeyId(""), .invalidIssuerId(""), .invalidBundleId("")] {
                let message = error.localizedDescription
                #expect(!message.isEmpty)
                #expect(message.contains(error.field))
                #expect(message.contains("e.g.") || message.contains("such as"))
            }
        }
    }
}
