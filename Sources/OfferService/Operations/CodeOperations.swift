extension ServiceOperation {
    /// The operations on the service's code ledger; only a service with a ledger has them.
    static var codeOperations: [ServiceOperation] { [claimCode, campaignStatus] }
}
