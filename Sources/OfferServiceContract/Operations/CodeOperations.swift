extension OperationContract {
    /// The operations on the service's code ledger; only a service with a ledger has them.
    package static var codeOperations: [OperationContract] { [claimCode, campaignStatus] }
}
