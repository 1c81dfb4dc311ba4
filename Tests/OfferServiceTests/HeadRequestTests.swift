import HTTPTypes
import HummingbirdTesting
import OfferService
import Testing

/// HEAD on the GET endpoints, and the methods a 405 names.
@Suite("HEAD requests")
struct HeadRequestTests {
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
}
