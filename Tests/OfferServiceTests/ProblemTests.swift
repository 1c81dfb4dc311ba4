import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import OfferSigning
import Testing

@testable import OfferService

@Suite("Problems: RFC 9457 bodies, 404, 405, field paths, no key material")
struct ProblemTests {
    let body = ServiceFixtures.promotionalOfferBody
    let signPath = ServiceFixtures.promotionalOfferPath

    @Test("an unknown path is a 404 not-found problem, with or without an API key")
    func unknownPath() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            for (method, path) in [(HTTPRequest.Method.get, "/nope"), (.post, "/v1/signatures/nope"), (.get, "/")] {
                for key in [nil, ServiceFixtures.admin.secret] {
                    let response = try await client.call(method, path, key: key)
                    #expect(response.status == 404)
                    #expect(response.problemSlug == "not-found")
                    #expect(response.string("detail")?.contains(path) == true)
                }
            }
        }
    }

    @Test("a very long unknown path is clipped in the detail")
    func longUnknownPath() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let path = "/" + String(repeating: "a", count: 5000)
            let response = try await client.call(.get, path)
            #expect(response.status == 404)
            #expect(response.text.count < 1000)
        }
    }

    @Test("a wrong method on a known path is a 405 method-not-allowed problem with Allow")
    func wrongMethod() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.delete, "/healthz", "GET, HEAD"), (.post, "/readyz", "GET, HEAD"), (.get, signPath, "POST"),
                (.put, signPath, "POST"),
            ]
            for (method, path, allow) in cases {
                let response = try await client.call(method, path, key: ServiceFixtures.admin.secret)
                #expect(response.status == 405, "\(method) \(path)")
                #expect(response.problemSlug == "method-not-allowed")
                #expect(response.headers[.allow] == allow)
            }
        }
    }

    @Test("every problem type this layer answers is a well-formed problem document")
    func everyProblemIsWellFormed() async throws {
        let clock = ManualClock()
        let service = try ServiceFixtures.service()
        let state = ServiceState(
            apps: service.state.apps, apiKeys: service.state.apiKeys,
            limits: ServiceLimits(maxBodyBytes: 1024, requestTimeoutSeconds: 0.05), authentication: .required,
            rateLimiter: RateLimiter(requestsPerSecond: 1, burst: 1, now: { clock.now }))
        let limited = OfferService(state: state)
        let operations = OfferService.operations + [TestOperations.slow, TestOperations.failing]
        let admin = ServiceFixtures.admin.secret
        let promotional = ServiceFixtures.promotionalOnly.secret
        let signPath = signPath
        let body = body
        // Each request, and the status it must get. The clock moves a minute before each one, so
        // the rate limit only answers where the list asks for it (the last two).
        let cases: [(status: Int, send: @Sendable (any TestClientProtocol) async throws -> ServiceResponse)] = [
            (400, { try await $0.call(.post, signPath, body: "{", key: admin) }),
            (422, { try await $0.call(.post, signPath, body: "{}", key: promotional) }),
            (401, { try await $0.call(.post, signPath, body: body) }),
            (403, { try await $0.call(.get, "/metrics", key: promotional) }),
            (
                404,
                {
                    try await $0.call(
                        .post, signPath, body: body.replacingOccurrences(of: "demo", with: "x"), key: admin)
                }
            ),
            (404, { try await $0.call(.get, "/nope") }),
            (405, { try await $0.call(.get, signPath) }),
            (413, { try await $0.call(.post, signPath, body: String(repeating: " ", count: 2000) + body, key: admin) }),
            (415, { try await $0.call(.post, signPath, body: body, contentType: "text/plain", key: admin) }),
            (500, { try await $0.call(.get, "/test/failing", key: admin) }),
            (503, { try await $0.call(.get, "/test/slow", key: admin) }),
        ]
        var seen: Set<String> = try await limited.testApplication(operations: operations).test(.router) { client in
            var slugs = Set<String>()
            for (status, send) in cases {
                clock.advance(by: 60)
                let response = try await send(client)
                #expect(response.status == status, "\(response.text)")
                slugs.formUnion([response.problemSlug].compactMap { $0 })
            }
            _ = try await client.call(.get, "/test/failing", key: admin)
            let limitedResponse = try await client.call(.get, "/test/failing", key: admin)
            #expect(limitedResponse.status == 429)
            return slugs.union([limitedResponse.problemSlug].compactMap { $0 })
        }
        let shutdown = try await ServiceFixtures.application(service).test(.router) { client in
            service.state.beginShutdown()
            return try await client.call(.get, "/readyz")
        }
        #expect(shutdown.status == 503)
        seen.formUnion([shutdown.problemSlug].compactMap { $0 })
        let layer: Set<String> = [
            "malformed-json", "invalid-field", "unauthorized", "forbidden", "unknown-app", "not-found",
            "method-not-allowed", "body-too-large", "unsupported-media-type", "rate-limited", "timeout", "unavailable",
            "internal-error",
        ]
        #expect(seen == layer)
    }

    @Test("the problem's requestId is the response's X-Request-Id")
    func requestIdInProblem() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.get, "/nope", headers: [RequestHeader.requestId: "caller-id-42"])
            #expect(response.headers[RequestHeader.requestId] == "caller-id-42")
            #expect(response.string("requestId") == "caller-id-42")
        }
    }

    @Test(
        "a nested violation names its path",
        arguments: [
            (#"{"a":{"b":[{"c":"x"},{"c":"y"},{"c":5}]}}"#, "a.b[2].c"),
            (#"{"a":{"b":[{"c":"x"},{}]}}"#, "a.b[1].c"),
            (#"{"a":{"b":[{"c":"x","zz":1}]}}"#, "a.b[0].zz"),
            (#"{"a":{"b":"x"}}"#, "a.b"),
            (#"{"a":{}}"#, "a.b"),
            (#"{"a":{"b":[]}}"#, "a.b"),
            (#"{}"#, "a"),
            (#"[]"#, "(body)"),
        ])
    func nestedFieldPath(json: String, field: String) async throws {
        let service = try ServiceFixtures.service()
        try await service.testApplication(operations: [TestOperations.nested]).test(.router) { client in
            let response = try await client.call(.post, "/test/nested", body: json, key: ServiceFixtures.admin.secret)
            #expect(response.status == 422, "\(response.text)")
            #expect(response.problemSlug == "invalid-field")
            #expect(response.string("field") == field)
            #expect(response.string("detail")?.hasPrefix(field + ": expected") == true)
        }
    }

    @Test("a valid nested body reaches the handler")
    func nestedValid() async throws {
        let service = try ServiceFixtures.service()
        try await service.testApplication(operations: [TestOperations.nested]).test(.router) { client in
            let response = try await client.call(
                .post, "/test/nested", body: #"{"a":{"b":[{"c":"x"},{"c":"y"},{"c":"z"}]}}"#,
                key: ServiceFixtures.admin.secret)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.headers[.contentType] == "application/json")
        }
    }

    @Test(
        "duplicate members are a 400 malformed-json problem naming the member",
        arguments: [
            #"{"bundleId":"com.example.offerkit.demo","bundleId":"com.example.offerkit.other","productId":"p","offerIdentifier":"o"}"#,
            #"{"bundleId":"com.example.offerkit.demo","productId":"p","offerIdentifier":"o","productId":"p"}"#,
        ])
    func duplicateMembers(json: String) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.post, signPath, body: json, key: ServiceFixtures.admin.secret)
            #expect(response.status == 400)
            #expect(response.problemSlug == "malformed-json")
            let detail = try #require(response.string("detail"))
            #expect(detail.contains("duplicate member"))
            #expect(!detail.contains("ParseError"))
        }
    }

    @Test("a nested duplicate member is refused too")
    func nestedDuplicate() async throws {
        let service = try ServiceFixtures.service()
        try await service.testApplication(operations: [TestOperations.nested]).test(.router) { client in
            let response = try await client.call(
                .post, "/test/nested", body: #"{"a":{"b":[{"c":"x","c":"y"}]}}"#, key: ServiceFixtures.admin.secret)
            #expect(response.status == 400)
            #expect(response.problemSlug == "malformed-json")
        }
    }

    @Test("an unknown member is a 422 invalid-field problem naming it")
    func unknownMember() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let json = body.replacingOccurrences(of: "}", with: #","productID":"x"}"#)
            let response = try await client.call(.post, signPath, body: json, key: ServiceFixtures.admin.secret)
            #expect(response.status == 422)
            #expect(response.problemSlug == "invalid-field")
            #expect(response.string("field") == "productID")
            #expect(response.string("detail")?.contains("productId") == true)
        }
    }

    @Test("a signing-library validation error that a handler lets through is a 422 naming the field")
    func libraryErrorFromHandler() async throws {
        let service = try ServiceFixtures.service()
        try await service.testApplication(operations: [TestOperations.libraryError]).test(.router) { client in
            let response = try await client.call(.get, "/test/library-error", key: ServiceFixtures.admin.secret)
            #expect(response.status == 422)
            #expect(response.problemSlug == "invalid-field")
            #expect(response.string("field") == "items[0].SKU")
        }
    }

    @Test("ServiceProblem.invalid(_:under:) puts the library's field under the prefix, in field and detail")
    func invalidUnderPrefix() {
        let plain = ServiceProblem.invalid(RequestValidationError.empty(field: "SKU"))
        #expect(plain.field == "SKU")
        #expect(plain.detail.hasPrefix("SKU is empty"))
        let nested = ServiceProblem.invalid(RequestValidationError.empty(field: "items[0].SKU"), under: "request")
        #expect(nested.field == "request.items[0].SKU")
        #expect(nested.detail.hasPrefix("request.items[0].SKU is empty"))
        let indexed = ServiceProblem.invalid(
            RequestValidationError.invalidFormat(field: "[2].SKU", expected: "text"), under: "items")
        #expect(indexed.field == "items[2].SKU")
        #expect(indexed.detail.hasPrefix("items[2].SKU is invalid"))
    }

    @Test("every ProblemType has a unique slug, URI and a title, and a 4xx or 5xx status")
    func problemTypes() {
        let all = ProblemType.all
        #expect(Set(all.map(\.slug)).count == all.count)
        #expect(Set(all.map(\.uri)).count == all.count)
        for type in all {
            #expect(type.uri == "urn:offerkit:problem:\(type.slug)")
            #expect(type.slug.utf8.allSatisfy { (0x61...0x7A).contains($0) || $0 == 0x2D }, "\(type.slug)")
            #expect((400...599).contains(type.status))
            #expect(!type.title.isEmpty && !type.explanation.isEmpty)
        }
    }

    @Test("the key-material scanner knows the demo key's PEM body and its raw scalar")
    func keyMaterialForms() throws {
        let pem = try String(contentsOfFile: ServiceFixtures.keyFile, encoding: .utf8)
        #expect(DemoKeyMaterial.scalar.count == 32)
        #expect(DemoKeyMaterial.forms.contains(DemoKeyMaterial.pemLines.joined()))
        for line in DemoKeyMaterial.pemLines { #expect(pem.contains(line)) }
        // The scanner finds the key where it is.
        #expect(DemoKeyMaterial.leaks(in: pem) != nil)
        #expect(DemoKeyMaterial.leaks(in: "d=" + DemoKeyMaterial.base64URL(DemoKeyMaterial.scalar)) != nil)
        #expect(DemoKeyMaterial.leaks(in: "nothing here") == nil)
    }
}
