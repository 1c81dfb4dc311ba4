extension ServiceOperation {
    /// The offer-code campaign operations.
    static var campaignOperations: [ServiceOperation] { [validateCampaign, planCampaign] }
}
