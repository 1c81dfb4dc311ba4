import AppleTestChain
import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit serve` with a `retention` section, run as a real process and called as the App Store
/// calls it: requests signed on the Swift-made test chain, its root trusted by the configuration.
@Suite("offerkit serve: the Get Retention Message endpoint")
struct RetentionServeTests {
    static let path = "/v1/retention/realtime"

    /// A configuration in `folder` for the demo app (App Apple ID 1234567890) with the example rules,
    /// the test chain's root in `root.pem` beside it.
    static func configuration(in folder: TempDir) throws -> String {
        _ = try folder.write(AppleTestChain.shared.rootPEM, to: "root.pem")
        return try folder.write(
            """
            {
              "apps": {
                "\(DemoKey.bundleId)": { "keyFile": "\(DemoKey.keyPath)", "keyId": "\(DemoKey.keyId)",
                                         "issuerId": "\(DemoKey.issuerId)", "appAppleId": \(RetentionExample.appAppleId) }
              },
              "retention": {
                "environments": ["Sandbox"],
                "rootCertificates": ["root.pem"],
                "apps": { "\(DemoKey.bundleId)": \(RetentionExample.rulesJSON) }
              }
            }
            """, to: "service.json")
    }

    static func body(
        productId: String = "com.example.offerkit.monthly", userLocale: String = "en-US",
        requestIdentifier: UUID = UUID(),
        variant: AppleTestChain.Variant = .good
    ) throws -> String {
        let payload = RealtimeRequestPayload(
            productId: productId, userLocale: userLocale, requestIdentifier: requestIdentifier)
        return String(
            decoding: AppleTestChain.body(try AppleTestChain.shared.sign(payload.json, variant: variant)), as: UTF8.self
        )
    }

    static func post(_ body: String, port: Int, requestId: String) async throws -> HTTPReply {
        try await HTTPConnection.request(
            "POST", path, port: port, headers: [("Content-Type", "application/json"), ("X-Request-Id", requestId)],
            body: body)
    }

    @Test func answersAppleSignedRequestsAndRefusesTheRest() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let config = try Self.configuration(in: folder)
        // No API key is configured: the endpoint needs none (the other operations are refused 401).
        let server = try ServerProcess(["serve", "--config", config, "--port", "0", "--no-auth"])
        let announced = try await server.waitForStderrLine(containing: "Get Retention Message endpoint")
        #expect(
            announced.contains(
                "POST /v1/retention/realtime answers Sandbox requests for com.example.offerkit.demo (appAppleId 1234567890)"
            ),
            "\(announced)")
        // The roots a request may chain to: Apple's, and the test root by its file and fingerprint.
        #expect(
            announced.contains("signed under Apple Root CA - G3 or the test root \(folder.file("root.pem")) (SHA-256 "),
            "\(announced)")
        let prefix = "offerkit: listening on http://127.0.0.1:"
        let line = try await server.waitForStderrLine(containing: prefix)
        let port = try #require(Int(line.dropFirst(prefix.count)), "no port in \(line)")

        // A V2 promotional offer, signed for this customer, verified with the demo public key.
        let id = UUID()
        let body = try Self.body(requestIdentifier: id)
        let offer = try await Self.post(body, port: port, requestId: "retention-v2")
        #expect(offer.status == 200, "\(offer)")
        #expect(offer.header("Content-Type") == "application/json")
        let jws = try #require(offer.json?["promotionalOffer"]?["promotionalOfferSignatureV2"]?.string, "\(offer)")
        let verified = try JWSVerifier(publicKeyPEM: try String(contentsOfFile: DemoKey.publicKeyPath, encoding: .utf8))
            .verify(jws, as: .promotionalOffer)
        #expect(verified.claims.transactionId == "2000000900000001" && verified.claims.offerIdentifier == "WINBACK50")
        #expect(verified.claims.bid == DemoKey.bundleId)
        // Retried: the same bytes.
        let again = try await Self.post(body, port: port, requestId: "retention-replay")
        #expect(again.body == offer.body)

        // Every other kind of the example rules.
        for (productId, userLocale, kind) in RetentionExample.requests.dropFirst() {
            let reply = try await Self.post(
                try Self.body(productId: productId, userLocale: userLocale), port: port, requestId: "retention-\(kind)")
            #expect(reply.status == 200, "\(reply)")
            let member = reply.json?.object?.keys.first ?? "default"
            #expect(member == kind, "\(reply)")
        }

        // Not signed by the test chain's leaf: 401, saying nothing of why.
        let forged = try await Self.post(
            try Self.body(variant: .signedByAnotherKey), port: port, requestId: "retention-forged")
        #expect(forged.status == 401, "\(forged)")
        #expect(forged.json?["type"]?.string == "urn:offerkit:problem:unverified-request", "\(forged)")

        server.terminate()
        let run = await server.waitForExit()
        #expect(run.status == 0, "\(run)")
        let lines = run.stderr.split(separator: "\n")
        let answered = lines.first { $0.contains("request.id=retention-v2") }
        #expect(answered?.contains("retention.requestIdentifier=\(id.uuidString.lowercased())") == true, "\(run)")
        #expect(answered?.contains("retention.decision=promotionalOffer") == true, "\(run)")
        #expect(
            lines.first { $0.contains("request.id=retention-replay") }?.contains("retention.replay=replayed") == true)
        let refused = lines.first { $0.contains("request.id=retention-forged") }
        #expect(refused?.contains("retention.rejection=signatureInvalid") == true, "\(run)")
        #expect(!run.stderr.contains("2000000900000001"), "no payload in the logs")
    }

    @Test func aTestRootWithProductionStopsTheStartNamingTheEnvironment() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let config = try Self.configuration(in: folder)
        let text = try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(
            of: #""environments": ["Sandbox"]"#, with: #""environments": ["Sandbox", "Production"]"#)
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try await CLI.run(["serve", "--config", config, "--port", "0", "--no-auth"])
        Expect.failure(
            result, status: 3, mentioning: ["retention.environments[1]: expected only test environments", "Production"])
    }

    @Test func aRuleMistakeStopsTheStartNamingItsPath() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let config = try Self.configuration(in: folder)
        let text = try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(
            of: #""signature": "v1""#, with: #""signature": "v3""#)
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try await CLI.run(["serve", "--config", config, "--port", "0", "--no-auth"])
        Expect.failure(
            result, status: 3,
            mentioning: [
                #"retention.apps["com.example.offerkit.demo"][1].promotionalOffer.signature: expected "v1" or "v2" (in any case), found "v3""#
            ])
    }
}
