extension ServiceOperation {
    /// Every operation, in the order of the OpenAPI document: signatures (the batch last), tokens, campaigns, codes
    /// (only with a ledger), the Get Retention Message endpoint (only with `retention`, at the
    /// default path here), the service's own endpoints, then the earlier paths still served
    /// (deprecated).
    package static var all: [ServiceOperation] {
        signatureOperations + [signBatch] + tokenOperations + campaignOperations + codeOperations + retentionOperations
            + serviceOperations + deprecatedPathOperations
    }
}
