import Foundation
import HTTPTypes
import HummingbirdTesting
import OfferService
import OfferSigning
import Testing

/// An API key limited to some bundle IDs cannot act for the whole team: no App Store Connect API
/// token, at request time or in the configuration.
@Suite("Bundle-limited API keys and team-wide tokens")
struct BundleLimitedKeyTests {
    @Test("a key limited to some bundle IDs may not create a team-wide App Store Connect API token")
    func connectTokenNeedsEveryApp() async throws {
        let limited = APIKey.generate(name: "limited", bundleIds: [ServiceFixtures.app])
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
}
