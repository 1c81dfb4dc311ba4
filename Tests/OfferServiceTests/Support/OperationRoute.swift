import HTTPTypes
import HummingbirdTesting
import OfferJSON
import OfferService
import OfferSigning
import Testing

/// One operation's route, called on a fresh service over the fixtures, with the checks the
/// operation suites share: the problems every operation answers alike (422 `invalid-field`
/// naming the field, 404 `unknown-app`, 403 without the scope, 401 without a key) and the
/// request example that must be accepted.
struct OperationRoute {
    let path: String

    /// Posts `json` with `key` to `service` (``ServiceFixtures/service(authentication:clock:_:)``
    /// unless given) and returns the response, checked by ``TestClientProtocol/send``.
    func post(
        _ json: String, key: String? = ServiceFixtures.admin.secret, to service: OfferService? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ServiceResponse {
        let app = ServiceFixtures.application(try service ?? ServiceFixtures.service())
        return try await app.test(.router) { client in
            try await client.send(.post, path, json: json, key: key, sourceLocation: sourceLocation)
        }
    }

    /// Expects `json`, sent with the admin key, to be a 422 `invalid-field` problem whose `field`
    /// is `field`; returns the response for further checks.
    @discardableResult
    func expectInvalidField(
        _ json: String, field: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ServiceResponse {
        let response = try await post(json, sourceLocation: sourceLocation)
        #expect(response.status == 422, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
        #expect(response.problemSlug == "invalid-field", sourceLocation: sourceLocation)
        #expect(response.string("field") == field, "\(response.text)", sourceLocation: sourceLocation)
        return response
    }

    /// Expects `json`, which names a bundle ID the service does not have, to be a 404
    /// `unknown-app` problem naming `bundleId`.
    func expectUnknownApp(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let response = try await post(json, sourceLocation: sourceLocation)
        #expect(response.status == 404, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.problemSlug == "unknown-app", sourceLocation: sourceLocation)
        #expect(response.string("field") == "bundleId", sourceLocation: sourceLocation)
    }

    /// Expects `json` to be refused with 403 `forbidden`, naming `scope`, for
    /// ``ServiceFixtures/promotionalOnly`` (a key without that scope), and with 401
    /// `unauthorized` and a Bearer challenge without a key.
    func expectScopeRequired(
        _ scope: String, json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let forbidden = try await client.send(
                .post, path, json: json, key: ServiceFixtures.promotionalOnly.secret, sourceLocation: sourceLocation)
            #expect(forbidden.status == 403, "\(forbidden.text)", sourceLocation: sourceLocation)
            #expect(forbidden.problemSlug == "forbidden", sourceLocation: sourceLocation)
            #expect(forbidden.string("detail")?.contains(scope) == true, sourceLocation: sourceLocation)
            let anonymous = try await client.send(.post, path, json: json, sourceLocation: sourceLocation)
            #expect(anonymous.status == 401, "\(anonymous.text)", sourceLocation: sourceLocation)
            #expect(anonymous.problemSlug == "unauthorized", sourceLocation: sourceLocation)
            #expect(
                anonymous.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true, sourceLocation: sourceLocation)
        }
    }

    /// Checks that operation `operationId` is at this route with request component `component`
    /// and that the component's example passes its own schema, then posts the example with the
    /// admin key to a service that has the example's app. Returns the example and the response.
    func postRequestExample(
        of operationId: String, component: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (example: JSONValue, response: ServiceResponse) {
        let operation = try #require(
            OfferService.operations.first { $0.id == operationId }, sourceLocation: sourceLocation)
        #expect(operation.path == path, sourceLocation: sourceLocation)
        let schema = try #require(operation.requestSchema, sourceLocation: sourceLocation)
        #expect(schema.componentName == component, sourceLocation: sourceLocation)
        let example = try #require(schema.example, sourceLocation: sourceLocation)
        try SchemaValidator().validate(example, against: schema)
        guard case .string(let bundleId)? = example["bundleId"] else {
            throw ExampleError(operationId: operationId)
        }
        let service = try ServiceFixtures.service { $0.apps[bundleId] = $0.apps[ServiceFixtures.app] }
        let response = try await post(example.text(), to: service, sourceLocation: sourceLocation)
        return (example, response)
    }

    /// A request example without a string `bundleId`.
    private struct ExampleError: Error, CustomStringConvertible {
        let operationId: String
        var description: String { "the request example of \(operationId) has no bundleId" }
    }
}
