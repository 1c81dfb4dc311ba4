import OfferServiceContract

extension ServiceOperation {
    /// `POST /v1/signatures/batch`: up to 1,000 signing requests of any types in one body, each
    /// signed by the operation of its type (``signing(_:)``) and answered in order.
    package static let signBatch = ServiceOperation(.signBatch) { request in
        try await SignatureBatch.answer(request)
    }
}
