extension ServiceOperation {
    /// The two API token operations.
    static var tokenOperations: [ServiceOperation] { [createServerAPIToken, createConnectAPIToken] }
}
