import HTTPTypes
import OfferJSON
import OfferService
import OfferSigning
import Testing

/// A response with its body parsed.
struct ServiceResponse: Sendable {
    let status: Int
    let headers: HTTPFields
    let text: String
    let json: JSONValue?

    /// The string member `name` of the body.
    func string(_ name: String) -> String? {
        guard case .string(let value)? = json?[name] else { return nil }
        return value
    }

    /// The problem type slug (`invalid-field` for `urn:offerkit:problem:invalid-field`).
    var problemSlug: String? { string("type").map { String($0.dropFirst("urn:offerkit:problem:".count)) } }

    /// Checks the invariants of every response (see ``TestClientProtocol/call``).
    func expectWellFormed(sourceLocation: SourceLocation = #_sourceLocation) {
        let leak = DemoKeyMaterial.leaks(in: text + headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n"))
        #expect(leak == nil, "the response holds key material", sourceLocation: sourceLocation)
        let requestId = headers[RequestHeader.requestId]
        #expect(requestId != nil, "no X-Request-Id", sourceLocation: sourceLocation)
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
        #expect(string("requestId") == requestId, sourceLocation: sourceLocation)
    }
}
