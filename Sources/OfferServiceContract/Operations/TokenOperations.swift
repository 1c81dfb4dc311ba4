extension OperationContract {
    /// The two API token operations.
    package static var tokenOperations: [OperationContract] { [createServerAPIToken, createConnectAPIToken] }
}
