extension OperationContract {
    /// The offer-code campaign operations.
    package static var campaignOperations: [OperationContract] { [validateCampaign, planCampaign] }
}
