import OfferCodes
import OfferKitSigningCLI
import OfferLedger

/// Refuses a campaign file whose batches no longer match what the ledger recorded for them.
///
/// Offers and their codes cannot be edited once App Store Connect has them, and the ledger keeps
/// the codes that were issued: if the file changed (a given code renamed, a count or redemption
/// limit altered), `plan` would create something other than what `export` hands out.
enum RecordedBatchCheck {
    static func verify(_ campaign: Campaign, ledger: CodeLedger) async throws {
        var changes: [String] = []
        for batch in try await ledger.batches(campaign: campaign.name) {
            let label =
                "offer \"\(batch.offer)\", \(batch.kind == .custom ? "custom-code" : "one-time-use") batch "
                + "\(batch.index + 1)"
            guard let offer = campaign.offers.first(where: { $0.referenceName == batch.offer }) else {
                changes.append("\(label): the offer is no longer in the file")
                continue
            }
            switch batch.kind {
            case .custom:
                guard offer.customCodes.indices.contains(batch.index) else {
                    changes.append("\(label): the batch is no longer in the file")
                    continue
                }
                let current = offer.customCodes[batch.index]
                if current.codeCount != batch.codeCount {
                    changes.append("\(label): \(current.codeCount) codes in the file, \(batch.codeCount) recorded")
                }
                if current.redemptionLimit != batch.redemptionLimit {
                    changes.append(
                        "\(label): redemptionLimit \(current.redemptionLimit) in the file, \(batch.redemptionLimit) recorded"
                    )
                }
                if case .given(let codes) = current.source {
                    let recorded = try await ledger.customCodes(
                        campaign: campaign.name, offer: batch.offer, batchIndex: batch.index)
                    if codes.map({ $0.uppercased() }) != recorded.map({ $0.uppercased() }) {
                        changes.append("\(label): its codes differ from the ones recorded")
                    }
                }
            case .oneTimeUse:
                guard offer.oneTimeUseCodes.indices.contains(batch.index) else {
                    changes.append("\(label): the batch is no longer in the file")
                    continue
                }
                let current = offer.oneTimeUseCodes[batch.index]
                if current.count != batch.codeCount {
                    changes.append("\(label): count \(current.count) in the file, \(batch.codeCount) recorded")
                }
                if current.effectiveEnvironment != batch.environment {
                    changes.append(
                        "\(label): environment \(current.effectiveEnvironment.rawValue) in the file, "
                            + "\(batch.environment.rawValue) recorded")
                }
            }
        }
        guard !changes.isEmpty else { return }
        throw CLIError.invalidInput(
            ([
                "campaign \(campaign.name) changed since the ledger recorded it; recorded batches cannot change "
                    + "(App Store Connect does not edit offers or codes either). Restore the file, or add a new batch or "
                    + "a new campaign:"
            ] + changes.map { "  \($0)" }).joined(separator: "\n"))
    }
}
