import Foundation
import HTTPTypes
import HummingbirdTesting
import OfferService
import OfferSigning
import Testing

/// Regressions for the findings of the service's review.
@Suite("Service review regressions")
struct ReviewRegressionTests {
    @Test("a key limited to some bundle IDs may not create a team-wide App Store Connect API token")
    func connectTokenNeedsEveryApp() async throws {
        let limited = APIKey.generate(name: "limited", bundleIDs: [ServiceFixtures.app])
        let service = try ServiceFixtures.service { $0.apiKeys.append(limited.key) }
        try await ServiceFixtures.application(service).test(.router) { client in
            let refused = try await client.send(.post, "/v1/tokens/connect-api", json: "{}", key: limited.secret)
            #expect(refused.status == 403, "\(refused.text)")
            #expect(refused.problemSlug == "forbidden")
            #expect(refused.string("detail")?.contains("whole team") == true)
            let allowed = try await client.send(
                .post, "/v1/tokens/connect-api", json: "{}", key: ServiceFixtures.admin.secret)
            #expect(allowed.status == 200, "\(allowed.text)")
        }
    }

    @Test("a configuration refuses the connect-api-token scope on a key limited to some bundle IDs")
    func configurationRefusesLimitedConnectScope() throws {
        let folder = try TemporaryFolder()
        let digest = String(repeating: "ab", count: 32)
        let path = try folder.write(
            "service.json",
            #"{"apps":{},"apiKeys":[{"name":"k","sha256":"\#(digest)","scopes":["connect-api-token"],"bundleIds":["com.example.app"]}]}"#
        )
        #expect(throws: ConfigurationError.self) { try ServiceConfiguration.load(path: path, environment: [:]) }
        do {
            _ = try ServiceConfiguration.load(path: path, environment: [:])
        } catch {
            #expect(error.localizedDescription.contains("apiKeys[0].scopes"))
            #expect(error.localizedDescription.contains("whole team"))
        }
    }

    @Test(
        "HEAD answers every GET endpoint, and 405 lists HEAD with GET",
        arguments: ["/healthz", "/readyz", "/openapi.json"])
    func headForGetEndpoints(path: String) async throws {
        let service = try ServiceFixtures.service()
        try await ServiceFixtures.application(service).test(.router) { client in
            let head = try await client.call(.head, path)
            #expect(head.status == 200)
            #expect(head.text.isEmpty)
            let post = try await client.call(.post, path, body: "{}")
            #expect(post.status == 405)
            #expect(post.headers[HTTPField.Name("Allow")!] == "GET, HEAD")
        }
    }

    @Test("an object with many members parses in linear time and still refuses a duplicate name")
    func manyMembers() throws {
        let members = (0..<50_000).map { "\"k\($0)\":0" }
        let object = try JSONValue.parse(Array(("{" + members.joined(separator: ",") + "}").utf8))
        #expect(object.keys.count == 50_000)
        for duplicateAt in [1, 15, 16, 17, 40_000] {
            let text = "{" + (members[..<duplicateAt] + ["\"k0\":1"]).joined(separator: ",") + "}"
            #expect(throws: (any Error).self) { try JSONValue.parse(Array(text.utf8)) }
        }
    }
}
