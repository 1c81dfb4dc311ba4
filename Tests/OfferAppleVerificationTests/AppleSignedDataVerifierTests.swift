import AppleTestChain
import Crypto
import Foundation
import OfferAppleVerification
import Testing
import X509

@Suite("Apple signed data: every case of the test chain")
struct AppleSignedDataVerifierTests {
    @Test("each case is accepted or refused with the named reason", arguments: AppleSignedCases.loaded.cases)
    func eachCase(_ testCase: AppleSignedCases.Case) async throws {
        let outcome = try await AppleSignedCases.outcome(of: testCase)
        #expect(outcome == testCase.expect)
    }

    @Test("a refusal's message names the failure and never holds the JWS")
    func messagesHoldNoJWS() async throws {
        for testCase in AppleSignedCases.loaded.cases where testCase.expect != "accept" {
            let verifier = try AppleSignedCases.verifier(for: testCase)
            let kind = try #require(AppleSignedDataKind(rawValue: testCase.kind))
            do {
                _ = try await verifier.verify(testCase.jws, as: kind)
                Issue.record("\(testCase.name) was accepted")
            } catch {
                let message = error.localizedDescription
                #expect(!message.isEmpty)
                for part in testCase.jws.split(separator: ".") where part.count > 16 {
                    #expect(!message.contains(part), "\(testCase.name): \(message)")
                }
            }
        }
    }

    @Test("the typed methods decode Apple's fields")
    func typedDecoding() async throws {
        let cases = Dictionary(uniqueKeysWithValues: AppleSignedCases.loaded.cases.map { ($0.name, $0) })
        let transactionCase = try #require(cases["transaction"])
        let verifier = try AppleSignedCases.verifier(for: transactionCase)
        let transaction = try await verifier.verifyTransaction(transactionCase.jws)
        #expect(transaction.bundleId == "com.example.offerkit")
        #expect(transaction.transactionId == "2000000912345678")
        #expect(transaction.price == 4990)
        #expect(transaction.offerIdentifier == "WINBACK50")
        #expect(transaction.environment == "Sandbox")
        #expect(transaction.signedDate == 1_748_779_200_000)

        let renewalInfo = try await verifier.verifyRenewalInfo(try #require(cases["renewal-info"]).jws)
        #expect(renewalInfo.autoRenewStatus == 1)
        #expect(renewalInfo.eligibleWinBackOfferIds == ["WINBACK50"])

        let notification = try await verifier.verifyNotification(try #require(cases["notification"]).jws)
        #expect(notification.notification.notificationType == "DID_RENEW")
        #expect(notification.notification.data?.appAppleId == 1_234_567_890)
        #expect(notification.transactionInfo == transaction)
        #expect(notification.renewalInfo == renewalInfo)

        let request = try await verifier.verifyRealtimeRequest(try #require(cases["realtime-request"]).jws)
        #expect(request.appAppleId == 1_234_567_890)
        #expect(request.userLocale == "en-US")
        #expect(request.requestIdentifier == UUID(uuidString: "3db5b7f1-6b2c-4f5e-9c1a-2a7f0c9e8d41"))
    }

    @Test("a notification's nested JWS failure names the field")
    func nestedFieldNamed() async throws {
        let testCase = try #require(
            AppleSignedCases.loaded.cases.first { $0.name == "notification-nested-transaction-other-bundle" })
        await #expect(
            throws: AppleVerificationError.nested(
                field: "data.signedTransactionInfo",
                .bundleIdMismatch(expected: "com.example.offerkit", found: "com.example.other"))
        ) {
            _ = try await AppleSignedCases.verifier(for: testCase).verifyNotification(testCase.jws)
        }
    }

    @Test("Apple Root CA - G3 is the default root, and the test chain does not verify to it")
    func defaultRootIsAppleRootCAG3() async throws {
        let root = AppleRootCertificates.appleRootCAG3
        let fingerprint = SHA256.hash(data: try root.serializeAsPEM().derBytes)
            .map { String(format: "%02X", $0) }.joined(separator: ":")
        #expect(
            fingerprint
                == "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79")
        let verifier = try AppleSignedDataVerifier(bundleId: "com.example.offerkit", environment: .sandbox)
        #expect(verifier.rootCertificates == [root])
        let transaction = try #require(AppleSignedCases.loaded.cases.first { $0.name == "transaction" })
        do {
            _ = try await verifier.verifyTransaction(transaction.jws)
            Issue.record("a test chain verified to Apple Root CA - G3")
        } catch {
            #expect(AppleSignedCases.caseName(error) == "untrustedChain")
            #expect(error.localizedDescription.contains("Apple Root CA - G3"))
        }
    }

    @Test("a JWS over 64 KiB is refused before it is parsed")
    func sizeBound() async throws {
        let verifier = try AppleSignedDataVerifier(
            rootCertificates: [AppleSignedCases.testRoot], bundleId: "com.example.offerkit", environment: .sandbox)
        let large = String(repeating: "a", count: AppleCompactJWS.maximumBytes + 1)
        await #expect(throws: AppleVerificationError.inputTooLarge(bytes: 65_537, limit: 65_536)) {
            _ = try await verifier.verifyTransaction(large)
        }
        #expect(throws: AppleVerificationError.self) { _ = try AppleCompactJWS("a.b") }
    }

    @Test("settings Apple's libraries also refuse: production without an App Apple ID, no root, no bundle ID")
    func settings() async throws {
        #expect(throws: AppleVerificationError.appAppleIdRequired) {
            _ = try AppleSignedDataVerifier(bundleId: "com.example.offerkit", environment: .production)
        }
        #expect(throws: AppleVerificationError.noTrustedRoots) {
            _ = try AppleSignedDataVerifier(rootCertificates: [], bundleId: "b", environment: .sandbox)
        }
        let cases = Dictionary(uniqueKeysWithValues: AppleSignedCases.loaded.cases.map { ($0.name, $0) })
        let verifier = try AppleSignedDataVerifier(
            rootCertificates: [AppleSignedCases.testRoot], bundleId: nil, environment: .sandbox)
        await #expect(throws: AppleVerificationError.bundleIdRequired(kind: .transaction)) {
            _ = try await verifier.verifyTransaction(try #require(cases["transaction"]).jws)
        }
        // Real-time requests and renewal information name no bundle ID.
        _ = try await verifier.verifyRealtimeRequest(try #require(cases["realtime-request"]).jws)
        _ = try await verifier.verifyRenewalInfo(try #require(cases["renewal-info"]).jws)
    }

    @Test("roots are read from PEM (several blocks) and DER; other PEM is refused by name")
    func rootsFromPEMAndDER() throws {
        let pem = try #require(AppleSignedCases.loaded.roots["test"]) + AppleRootCertificates.appleRootCAG3PEM
        let roots = try AppleRootCertificates.certificates(pem: pem)
        #expect(roots.count == 2)
        let der = try roots[1].serializeAsPEM().derBytes
        #expect(try AppleRootCertificates.certificate(der: der) == AppleRootCertificates.appleRootCAG3)
        #expect(throws: AppleVerificationError.self) {
            _ = try AppleRootCertificates.certificates(
                pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        }
        #expect(throws: AppleVerificationError.self) { _ = try AppleRootCertificates.certificates(pem: "nothing") }
        // A file cut before its END line: the problem is named.
        let cut = AppleRootCertificates.appleRootCAG3PEM.replacingOccurrences(of: "-----END CERTIFICATE-----", with: "")
        #expect(
            throws: AppleVerificationError.unreadableRootCertificate(
                "expected PEM certificates (-----BEGIN CERTIFICATE----- blocks), found a BEGIN CERTIFICATE line "
                    + "without its END CERTIFICATE line")
        ) { _ = try AppleRootCertificates.certificates(pem: cut) }
        // As OpenSSL reads PEM: base64 lines of another width, CRLF line ends.
        let body = AppleRootCertificates.appleRootCAG3PEM.split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("-----") }.joined()
        let wide = stride(from: 0, to: body.count, by: 76).map {
            String(body.dropFirst($0).prefix(76))
        }
        let rewrapped = (["-----BEGIN CERTIFICATE-----"] + wide + ["-----END CERTIFICATE-----"]).joined(
            separator: "\r\n")
        #expect(try AppleRootCertificates.certificates(pem: rewrapped) == [AppleRootCertificates.appleRootCAG3])
    }

    @Test("a signedDate at either end of the 64-bit range is refused with a reason, not a crash")
    func extremeSignedDates() async throws {
        let chain = AppleTestChain.shared
        let verifier = try AppleSignedDataVerifier(
            rootCertificates: [chain.root], bundleId: nil, environment: .sandbox)
        for signedDate in [Int64.min, Int64.min + 1, -9_223_372_036_854_774_809, -1, Int64.max] {
            let jws = try chain.sign(RealtimeRequestPayload(signedDate: signedDate).json)
            do {
                _ = try await verifier.verifyRealtimeRequest(jws)
                Issue.record("signedDate \(signedDate) was accepted")
            } catch {
                guard case .certificateNotValid = error else {
                    Issue.record("signedDate \(signedDate): \(error)")
                    continue
                }
                #expect(error.localizedDescription.contains("the payload's signedDate"))
            }
            let signed = try AppleCompactJWS(jws)
            _ = try AppleSignedDataVerifier.signedDate(of: signed)
        }
    }
}
