import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OfferSigning
import Testing

@testable import OfferService

@Suite("Version on /healthz and in the Server header; metrics made once per label set")
struct VersionAndMetricsTests {
    @Test("GET /healthz carries the OfferKit version, the constant `offerkit --version` prints too")
    func healthVersion() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.get, "/healthz")
            #expect(response.status == 200)
            #expect(
                response.json == .object([("status", .string("ok")), ("version", .string(OfferKitVersion.current))]))
        }
        #expect(OfferService.version == OfferKitVersion.current)
        #expect(OpenAPIDocument.document()["info"]?["version"] == .string(OfferKitVersion.current))
    }

    @Test("every response, successes and problems alike, names the service: Server: offerkit/VERSION")
    func serverHeader() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let responses = [
                try await client.call(.get, "/healthz"), try await client.call(.get, "/nope"),
                try await client.call(.get, "/metrics"),
                try await client.call(.post, ServiceFixtures.promotionalOfferPath, body: "{}"),
                try await client.call(.delete, "/healthz"),
            ]
            for response in responses {
                #expect(response.headers[.server] == "offerkit/\(OfferKitVersion.current)", "\(response.status)")
            }
        }
    }

    @Test("counters and timers are made once per label set, not on every request")
    func metricsMadeOnce() async throws {
        let metrics = ServiceMetrics()
        for _ in 0..<100 {
            metrics.request(operation: "health", status: 200, nanoseconds: 1000)
            metrics.signed(.promotionalOffer)
            metrics.problem(.notFound)
        }
        // One request counter and one timer, one signature counter, one problem counter.
        #expect(metrics.madeCount == 4)
        metrics.request(operation: "health", status: 404, nanoseconds: 1000)
        #expect(metrics.madeCount == 5)
        let text = metrics.exposition()
        #expect(text.contains(#"offerkit_http_requests_total{operation="health",status="200"} 100"#), "\(text)")
        #expect(text.contains(#"offerkit_signatures_total{type="promotional-offer"} 100"#), "\(text)")
    }

    @Test("scopes are the signing operations' names, plus campaigns, codes and metrics; old spellings still read")
    func scopes() {
        #expect(
            OperationScope.allCases.map(\.rawValue)
                == SigningOperation.allCases.map(\.rawValue) + ["campaigns", "codes", "metrics"])
        for scope in OperationScope.allCases { #expect(OperationScope(rawValue: scope.rawValue) == scope) }
        #expect(OperationScope.named("promotional-offer-v1")! == (.legacyPromotionalOffer, true))
        #expect(OperationScope(rawValue: "promotional-offer-v1") == nil)
        #expect(OperationScope.named("nope") == nil)
    }
}
