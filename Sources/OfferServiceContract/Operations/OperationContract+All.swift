extension OperationContract {
    /// Every operation, in the order of the OpenAPI document: signatures (the batch last), tokens, campaigns, codes
    /// (only with a ledger), the Get Retention Message endpoint (only with `retention`, at the
    /// default path here), the service's own endpoints, then the earlier paths still served
    /// (deprecated).
    public static var all: [OperationContract] {
        signatureOperations + [signBatch] + tokenOperations + campaignOperations + codeOperations + retentionOperations
            + serviceOperations + deprecatedPathOperations
    }
}
