extension ServiceOperation {
    /// Every operation, in the order of the OpenAPI document: signatures, tokens, campaigns, codes
    /// (only with a ledger), the service's own endpoints, then the earlier paths still served
    /// (deprecated).
    package static var all: [ServiceOperation] {
        signatureOperations + tokenOperations + campaignOperations + codeOperations + serviceOperations
            + deprecatedPathOperations
    }
}
