import Foundation

/// Why the ledger refused or failed an operation.
///
/// No case carries code strings or file contents: messages name the ledger file, the campaign,
/// the offer and the batch, never the codes.
public enum LedgerError: Error, Equatable, Sendable {
    /// The ledger file could not be opened or created; `reason` is SQLite's or the file system's.
    case cannotOpen(path: String, reason: String)
    /// The file is not a readable SQLite database, or SQLite found it damaged.
    case corrupt(path: String, reason: String)
    /// The file is an SQLite database, but not an OfferKit ledger (it has tables of its own).
    case notALedger(path: String)
    /// The ledger was written by a newer OfferKit; `unknownMigrations` are the schema versions it
    /// does not know.
    case newerSchema(path: String, unknownMigrations: [String])
    /// A stored value cannot be read back (the ledger was edited by hand, or is damaged).
    case unreadableValue(table: String, column: String, value: String)
    /// SQLite failed during an operation (disk full, read-only file, locked by another process, …).
    case databaseFailure(operation: String, reason: String)
    /// The campaign name is already recorded for another app; campaign names are unique in a ledger.
    case campaignRecordedForAnotherApp(campaign: String, recordedAppAppleId: String, appAppleId: String)
    /// `recordBatch` was given a batch of one campaign together with another campaign.
    case batchOfAnotherCampaign(batchCampaign: String, campaign: String)
    /// The batch names an offer that the campaign does not define.
    case offerNotInCampaign(offer: String, campaign: String)
    /// No offer of that reference name is recorded for the campaign.
    case unknownOffer(offer: String, campaign: String)
    /// No one-time-use batch at that position is recorded for the offer.
    case unknownBatch(campaign: String, offer: String, index: Int)
    /// The one-time-use batch already has its codes.
    case alreadyImported(campaign: String, offer: String, index: Int, codeCount: Int)
    /// An empty string was given as a code.
    case emptyCode(campaign: String, offer: String)
}

extension LedgerError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let reason):
            return "Cannot open the code ledger at \(path): \(reason); expected a writable path to an OfferKit "
                + "ledger file (it is created when missing, its folder must exist)."
        case .corrupt(let path, let reason):
            return "The code ledger at \(path) is not a readable SQLite database (\(reason)); expected an OfferKit "
                + "ledger file: restore it from a backup, or choose another path."
        case .notALedger(let path):
            return "The file at \(path) is an SQLite database with tables of its own, not an OfferKit code ledger; "
                + "expected an OfferKit ledger file or a new path."
        case .newerSchema(let path, let unknownMigrations):
            return "The code ledger at \(path) was written by a newer OfferKit (unknown schema versions: "
                + "\(unknownMigrations.joined(separator: ", "))); expected a ledger of this version: update OfferKit."
        case .unreadableValue(let table, let column, let value):
            return "The code ledger holds \"\(value)\" in \(table).\(column), which this OfferKit cannot read; "
                + "expected a value OfferKit wrote (was the ledger edited by hand?)."
        case .databaseFailure(let operation, let reason):
            return "The code ledger failed to \(operation): \(reason); the ledger was left as it was before."
        case .campaignRecordedForAnotherApp(let campaign, let recordedAppAppleId, let appAppleId):
            return "Campaign \"\(campaign)\" is recorded in the ledger for app \(recordedAppAppleId), not for app "
                + "\(appAppleId); expected a campaign name that is unique in the ledger: rename the campaign."
        case .batchOfAnotherCampaign(let batchCampaign, let campaign):
            return "The batch belongs to campaign \"\(batchCampaign)\" but was recorded with campaign "
                + "\"\(campaign)\"; expected the batch's own campaign."
        case .offerNotInCampaign(let offer, let campaign):
            return "Campaign \"\(campaign)\" has no offer with referenceName \"\(offer)\"; expected the reference "
                + "name of one of its offers."
        case .unknownOffer(let offer, let campaign):
            return "The ledger has no offer \"\(offer)\" in campaign \"\(campaign)\"; expected the referenceName "
                + "of an offer recorded for that campaign."
        case .unknownBatch(let campaign, let offer, let index):
            return "The ledger has no one-time-use batch oneTimeUseCodes[\(index)] for offer \"\(offer)\" in "
                + "campaign \"\(campaign)\"; expected a batch that was recorded when it was created."
        case .alreadyImported(let campaign, let offer, let index, let codeCount):
            return "The one-time-use batch oneTimeUseCodes[\(index)] of offer \"\(offer)\" in campaign "
                + "\"\(campaign)\" already has its \(codeCount) codes; expected a batch whose codes were not "
                + "imported yet (export the recorded codes instead)."
        case .emptyCode(let campaign, let offer):
            return "An empty code was given for offer \"\(offer)\" in campaign \"\(campaign)\"; expected at least "
                + "one character."
        }
    }
}
