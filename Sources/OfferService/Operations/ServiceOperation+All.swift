extension ServiceOperation {
    /// Every operation, in the order of the OpenAPI document: signatures, tokens, campaigns,
    /// the service's own endpoints, then the earlier paths still served (deprecated).
    package static var all: [ServiceOperation] {
        signatureOperations + tokenOperations + campaignOperations + serviceOperations + deprecatedPathOperations
    }
}
