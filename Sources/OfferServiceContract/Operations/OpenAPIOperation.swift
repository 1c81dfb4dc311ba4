import OfferSigning

extension OperationContract {
    /// `GET /openapi.json`: this service's OpenAPI 3.1.0 description (``OpenAPIDocument``).
    package static let openAPIDocument = OperationContract(
        id: "openAPIDocument", method: .get, path: "/openapi.json", tag: "Service",
        summary: "This OpenAPI description",
        description: """
            The service's OpenAPI 3.1.0 description, generated from the same operations and schemas the service \
            routes and validates with; identical to `offerkit openapi` and to `openapi.json` in the repository, \
            except that a service without a code ledger leaves out the operations that need one. Needs no API key; \
            caches may keep it.
            """,
        scope: nil, requestSchema: nil, responseSchema: openAPIDocumentSchema, problems: []
    ).answeringFromMemory()

    /// An OpenAPI 3.1.0 document, checked only at its top level.
    private static let openAPIDocumentSchema = JSONSchema(
        .object(
            [
                .init("openapi", .enumeration([OpenAPIDocument.openAPIVersion])),
                .init("info", JSONSchema(.any, description: "Title, version and description.")),
                .init("paths", JSONSchema(.any, description: "Every operation of the service.")),
            ], additionalProperties: JSONSchema(.any)),
        description: "An OpenAPI 3.1.0 document."
    ).named("OpenAPIDocument")
}
