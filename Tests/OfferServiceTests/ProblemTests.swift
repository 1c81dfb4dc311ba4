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
    let body =
        #"{"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly","offerIdentifier":"WINBACK50"}"#
    let signPath = "/v1/signatures/promotional-offer"

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
                (.delete, "/healthz", "GET"), (.post, "/readyz", "GET"), (.get, signPath, "POST"),
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
    func requestIDInProblem() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.get, "/nope", headers: [RequestHeader.requestID: "caller-id-42"])
            #expect(response.headers[RequestHeader.requestID] == "caller-id-42")
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

// MARK: - Test support shared by the cross-cutting suites

/// Request and response header names the tests use.
enum RequestHeader {
    static let requestID = HTTPField.Name("X-Request-Id")!
}

/// The demo key's secret, in the forms a leak would take: each PEM line, the joined PEM body,
/// and the raw private scalar as hex, base64 and base64url.
enum DemoKeyMaterial {
    static let pemLines: [String] = {
        guard let pem = try? String(contentsOfFile: ServiceFixtures.keyFile, encoding: .utf8) else {
            fatalError("keys-example/SubscriptionKey_DEMOKEY123.p8 is missing")
        }
        return pem.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("-----") }
    }()

    /// The private scalar `d`: the 32 bytes after `02 01 01 04 20` (ECPrivateKey version 1, OCTET
    /// STRING of 32 bytes) in the PKCS#8 DER.
    static let scalar: [UInt8] = {
        guard let der = Data(base64Encoded: pemLines.joined()) else { fatalError("the demo key's PEM is not base64") }
        let bytes = [UInt8](der)
        let marker: [UInt8] = [0x02, 0x01, 0x01, 0x04, 0x20]
        guard let start = (0...(bytes.count - marker.count - 32)).first(where: { Array(bytes[$0..<$0 + 5]) == marker })
        else { fatalError("the demo key has no ECPrivateKey scalar") }
        return Array(bytes[start + 5..<start + 37])
    }()

    static let forms: [String] = {
        let hex = scalar.map { String(format: "%02x", $0) }.joined()
        let base64 = Data(scalar).base64EncodedString()
        return pemLines + [
            pemLines.joined(), hex, hex.uppercased(), base64, String(base64.prefix(40)),
            String(base64URL(scalar).prefix(40)),
        ]
    }()

    /// Base64url without padding (RFC 4648 section 5), as a JWK would hold the scalar.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The first form of key material found in `text`, or `nil`.
    static func leaks(in text: String) -> String? {
        forms.first { text.contains($0) }
    }
}

/// Operations that exist only in tests, routed through the service's middlewares and responder.
enum TestOperations {
    static func operation(
        _ id: String, method: HTTPRequest.Method = .get, requestSchema: JSONSchema? = nil,
        handler: @escaping @Sendable (OperationRequest) async throws -> OperationResponse
    ) -> ServiceOperation {
        ServiceOperation(
            id: id, method: method, path: "/test/\(id)", tag: "Test", summary: id, description: id,
            scope: .promotionalOffer, requestSchema: requestSchema, responseSchema: .object([]), problems: [],
            handler: handler)
    }

    /// Never finishes unless cancelled.
    static let slow = operation("slow") { _ in
        try await Task.sleep(nanoseconds: 86_400 * 1_000_000_000)
        return OperationResponse(body: .object([]))
    }

    /// An error whose text and type name must never reach a response.
    struct InternalFailure: Error, CustomStringConvertible {
        var description: String {
            "InternalFailure: database password hunter2 at /srv/secret; " + DemoKeyMaterial.forms[0]
        }
    }

    /// Throws ``InternalFailure``.
    static let failing = operation("failing") { _ in throw InternalFailure() }

    /// Throws a signing-library validation error.
    static let libraryError = operation("library-error") { _ in
        throw RequestValidationError.empty(field: "items[0].SKU")
    }

    /// Takes `{"a": {"b": [{"c": "…"}, …]}}` (b: 1–3 elements).
    static let nested = operation(
        "nested", method: .post,
        requestSchema: JSONSchema.object([
            .init(
                "a",
                .object([
                    .init("b", .array(of: .object([.init("c", .string(.identifier()))]), minItems: 1, maxItems: 3))
                ]))
        ]).named("Nested")
    ) { request in
        request.logger.info("nested handler ran")
        return OperationResponse(body: .object([("ok", .bool(true))]), noStore: false)
    }
}

/// A clock for the rate limiter that only moves when a test moves it.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 1000.0

    var now: Double { lock.withLock { seconds } }

    func advance(by interval: Double) { lock.withLock { seconds += interval } }
}

extension OfferService {
    /// An application over `operations` (the real ones or test operations), logging only critical
    /// messages unless `logger` is given.
    func testApplication(operations: [ServiceOperation], logger: Logger? = nil) -> some ApplicationProtocol {
        var quiet = Logger(label: "OfferServiceTests")
        quiet.logLevel = .critical
        return Application(router: makeRouter(operations: operations), logger: logger ?? quiet)
    }
}

extension TestClientProtocol {
    /// Sends a request and checks what every response must satisfy: an `X-Request-Id`, no key
    /// material in the body or headers, and for 4xx/5xx a well-formed problem document.
    ///
    /// `body` goes with `Content-Type: contentType` (none when `contentType` is `nil`); `key` is
    /// sent as the bearer token.
    func call(
        _ method: HTTPRequest.Method, _ path: String, body: String? = nil, contentType: String? = "application/json",
        key: String? = nil, headers extra: HTTPFields = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ServiceResponse {
        var headers = extra
        if let key { headers[.authorization] = "Bearer \(key)" }
        if body != nil, let contentType, headers[.contentType] == nil { headers[.contentType] = contentType }
        let raw = try await execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let text = String(buffer: raw.body)
        let response = ServiceResponse(
            status: Int(raw.status.code), headers: raw.headers, text: text, json: try? JSONValue.parse(Array(text.utf8))
        )
        response.expectWellFormed(sourceLocation: sourceLocation)
        return response
    }
}

extension ServiceResponse {
    /// Checks the invariants of every response (see ``TestClientProtocol/call``).
    func expectWellFormed(sourceLocation: SourceLocation = #_sourceLocation) {
        let leak = DemoKeyMaterial.leaks(in: text + headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n"))
        #expect(leak == nil, "the response holds key material", sourceLocation: sourceLocation)
        let requestID = headers[RequestHeader.requestID]
        #expect(requestID != nil, "no X-Request-Id", sourceLocation: sourceLocation)
        guard status >= 400 else { return }
        #expect(headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
        #expect(headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
        guard let json, case .object = json else {
            Issue.record("a \(status) response is not a JSON object: \(text)", sourceLocation: sourceLocation)
            return
        }
        let type = ProblemType.all.first { $0.uri == string("type") }
        #expect(type != nil, "unknown problem type \(string("type") ?? "none")", sourceLocation: sourceLocation)
        #expect(json["status"]?.int64 == Int64(status), "status member", sourceLocation: sourceLocation)
        #expect(type?.status == status, "the type's status", sourceLocation: sourceLocation)
        #expect(string("title") == type?.title, sourceLocation: sourceLocation)
        #expect(string("detail")?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(string("requestId") == requestID, sourceLocation: sourceLocation)
    }
}
