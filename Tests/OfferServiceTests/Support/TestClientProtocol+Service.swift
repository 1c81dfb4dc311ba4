import HTTPTypes
import HummingbirdTesting
import NIOCore
import OfferJSON
import OfferSigning
import Testing

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

    /// ``call(_:_:body:contentType:key:headers:sourceLocation:)`` with `json` as the body
    /// (`Content-Type: application/json`), checking the same invariants.
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, key: String? = nil,
        headers extra: HTTPFields = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ServiceResponse {
        try await call(method, path, body: json, key: key, headers: extra, sourceLocation: sourceLocation)
    }
}
