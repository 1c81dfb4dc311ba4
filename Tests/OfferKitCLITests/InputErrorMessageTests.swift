import Foundation
import Testing

@testable import CLITestSupport

/// Input errors name the field in the input's own terms (JSON, flags), with the exit code of
/// their kind, and never echo a long value (it may be a key pasted into the wrong place).
@Suite("offerkit input error messages")
struct InputErrorMessageTests {
    @Test("a negative --iat is rejected, naming iat")
    func negativeIssuedAt() async throws {
        let result = try await CLI.run(CredentialTests.signArguments + DemoKey.flags + ["--iat=-100"])
        Expect.failure(result, status: 4, mentioning: ["iat"])
    }

    @Test("a long value given as key ID or nonce is not echoed at all")
    func longValuesAreNotEchoed() async throws {
        let scalar = String(repeating: "ab01", count: 16)
        let asKeyId = try await CLI.run(
            CredentialTests.signArguments + [
                "--key-file", DemoKey.privateCopy, "--key-id", scalar, "--issuer-id",
                DemoKey.issuerId, "--bundle-id", DemoKey.bundleId,
            ])
        Expect.failure(asKeyId, status: 3, mentioning: ["keyId"])
        #expect(!asKeyId.stderr.contains("ab01ab01"))
        let asNonce = try await CLI.run(CredentialTests.signArguments + DemoKey.flags + ["--nonce", scalar])
        Expect.failure(asNonce, status: 4, mentioning: ["nonce"])
        #expect(!asNonce.stderr.contains("ab01ab01"))
    }

    @Test("request errors speak JSON, not Swift: arrays and UUIDs")
    func requestErrorsInJSONTerms() async throws {
        let base =
            #"{"operation":"CREATE_SUBSCRIPTION","requestInfo":{"requestReferenceId":"REF"},"currency":"USD","taxCode":"C","descriptors":{"description":"d","displayName":"n"},"items":ITEMS,"period":"P1M"}"#
        let badUUID = base.replacingOccurrences(of: "REF", with: "nope").replacingOccurrences(
            of: "ITEMS", with: #"[{"SKU":"s","description":"d","displayName":"n","price":1}]"#)
        let uuidResult = try await CLI.run(
            ["sign", "advanced-commerce", "--request", "-"] + DemoKey.flags, stdin: Data(badUUID.utf8))
        Expect.failure(uuidResult, status: 4, mentioning: ["requestInfo.requestReferenceId", "expected a UUID"])
        let notArray = base.replacingOccurrences(of: "REF", with: "f55df048-4cd8-4261-b404-b6f813ff70e5")
            .replacingOccurrences(of: "ITEMS", with: "{}")
        let arrayResult = try await CLI.run(
            ["sign", "advanced-commerce", "--request", "-"] + DemoKey.flags, stdin: Data(notArray.utf8))
        Expect.failure(arrayResult, status: 4, mentioning: ["items", "expected an array"])
        #expect(!arrayResult.stderr.contains("Array<"))
    }
}
