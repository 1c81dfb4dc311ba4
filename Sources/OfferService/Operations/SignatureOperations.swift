extension ServiceOperation {
    /// The four signing operations.
    static var signatureOperations: [ServiceOperation] { [signPromotionalOffer] }
}
