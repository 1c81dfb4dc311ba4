extension ServiceOperation {
    /// Every operation, in the order of the OpenAPI document: signatures, tokens, campaigns,
    /// then the service's own endpoints.
    package static var all: [ServiceOperation] {
        signatureOperations + tokenOperations + campaignOperations + serviceOperations
    }
}
