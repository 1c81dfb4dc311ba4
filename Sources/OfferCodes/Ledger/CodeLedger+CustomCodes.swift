extension CodeLedger {
    /// The codes recorded for one custom-code batch, in the order they were issued (empty when the
    /// batch is not recorded). Use it to supply generated codes to ``RequestPlanner``.
    public func customCodes(campaign: String, offer: String, batchIndex: Int) throws -> [String] {
        var codes: [String] = []
        try forEachCode(campaign: campaign, offer: offer) { issued in
            if issued.kind == .custom, issued.batchIndex == batchIndex { codes.append(issued.code) }
        }
        return codes
    }
}
