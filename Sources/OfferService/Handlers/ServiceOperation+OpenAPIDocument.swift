import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `GET /openapi.json`: this service's OpenAPI 3.1.0 description (``OpenAPIDocument``).
    static let openAPIDocument = ServiceOperation(.openAPIDocument) { request in
        OperationResponse(
            body: OpenAPIDocument.document(
                includingLedger: request.state.ledger != nil, retentionPath: request.state.retention?.path),
            noStore: false)
    }
}
