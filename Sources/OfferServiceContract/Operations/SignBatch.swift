import OfferSigning

extension OperationContract {
    /// `POST /v1/signatures/batch`: up to 1,000 signing requests of any types in one body, each
    /// signed by the operation of its type and answered in order.
    package static let signBatch: OperationContract = {
        var operation = OperationContract(
            id: "signBatch", method: .post, path: "/v1/signatures/batch", tag: "Signatures",
            summary: "Sign up to \(BatchSchemas.maximumItems) requests of any types in one call",
            description: """
                Signs several requests in one round trip (a storefront that shows three offers signs them at \
                once), each exactly as its own endpoint would: an item is that endpoint's body with `type` (\
                \(SigningOperation.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")): the names of \
                `offerkit batch` and of the API key scopes) and an optional `id` (a string or an integer, echoed). \
                Each item is checked on its own: its scope (a key without it gets a `403` for that item), its \
                members against its endpoint's schema, its bundle ID; a refused item's result carries the \
                `problem` its endpoint would have answered, with its `status`, and the other items are signed. \
                Results come in request order with `index`, `type` and `id`. The answer is `200` whenever the \
                envelope is valid, even if every item failed. Envelope problems answer for the whole request: \
                no key (`401`), a body that is not JSON (`400`), too large (`413`), or has no `requests` array of \
                1 to \(BatchSchemas.maximumItems) items (`422` naming `requests`). The batch takes one rate-limit \
                token per item, all at once: too few left is a `429` with `Retry-After` for that many, and more \
                items than the key's burst is a `422` naming `requests`. Larger batches are signed on every core.
                """,
            scope: nil, requestSchema: BatchSchemas.request, responseSchema: BatchSchemas.response, problems: []
        )
        operation.authorizesPerItem = true
        operation.bundleLimit = .eachItem
        operation.computesOnly = true
        operation.envelopeSchema = BatchSchemas.envelope
        return operation
    }()
}
