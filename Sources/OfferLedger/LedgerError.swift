import Foundation
import OfferCodes

/// Why the ledger refused or failed an operation.
///
/// No case carries code strings or file contents: messages name the ledger file, the campaign,
/// the offer and the batch, never the codes.
public enum LedgerError: Error, Equatable, Sendable {
    /// The ledger file could not be opened or created; `reason` is SQLite's or the file system's.
    case cannotOpen(path: String, reason: String)
    /// The ledger looks damaged: the file is not a readable SQLite database, SQLite found it
    /// damaged, or a stored value or batch does not match what OfferKit wrote (a value of another
    /// type, a count or checksum that differs). `path` is `:memory:` for an in-memory ledger.
    case corrupt(path: String, reason: String)
    /// The file is an SQLite database, but not an OfferKit ledger (it has tables of its own).
    case notALedger(path: String)
    /// The ledger was written by a newer OfferKit; `unknownMigrations` are the schema versions it
    /// does not know.
    case newerSchema(path: String, unknownMigrations: [String])
    /// The ledger was opened to be read only, and its schema is older than this OfferKit's: it
    /// has `applied` of the `current` schema versions (0: no ledger tables yet). Reading never
    /// brings a ledger up to date; `offerkit codes ledger migrate` (or any command that writes the
    /// ledger) does.
    case olderSchema(path: String, applied: Int, current: Int)
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
    /// The batch given to `recordBatch` has a value the ledger cannot store (a negative count, a
    /// quarter not written like `2027-Q1`, …); `problem` says which.
    case invalidBatch(campaign: String, offer: String, problem: String)
    /// Recording the batch would take the app over Apple's limit of codes per quarter in the
    /// batch's environment; `recorded` is what the ledger already holds for the app in that
    /// quarter and environment. Nothing of the batch is recorded.
    case quarterLimitExceeded(batch: LedgerBatch, appAppleId: String, limit: Int, recorded: Int)
    /// Recording the campaign's offers (or switching one on) would make more of the app's offers
    /// active than Apple allows; `active` is how many would be. Nothing is changed.
    case activeOfferLimitExceeded(campaign: String, appAppleId: String, active: Int, limit: Int)
    /// No campaign of that name is recorded in the ledger.
    case unknownCampaign(campaign: String)
    /// A recipient id breaks `RecipientId`'s rules; `position` is its place (from 1) in a list
    /// of several.
    case invalidRecipient(position: Int?, problem: String)
    /// The offer is recorded inactive (App Store Connect's `active` switch is off): its codes
    /// cannot be redeemed, so none is handed out.
    case offerInactive(offer: String, campaign: String)
    /// Every code of the offer that may be handed out in the environment is handed out:
    /// `assigned` of `stored` (for shared codes: recipients of redemptions).
    case noCodeLeft(campaign: String, offer: String, environment: CodeEnvironment, assigned: Int, stored: Int)
    /// The offer has no codes to hand out in the environment at all; `reason` says why (no batch,
    /// expired batches, codes not imported yet).
    case nothingToAssign(campaign: String, offer: String, environment: CodeEnvironment, reason: String)
    /// An App Store Connect resource cannot be recorded as given: `problem` says why (it would
    /// change the id, body or state of a resource App Store Connect created, or a value is out of
    /// range). Nothing was recorded.
    case connectResourceConflict(resource: String, problem: String)
    /// Another `codes apply` or `codes fetch` is working on the campaign with this ledger.
    case connectRunInProgress(campaign: String)
    /// The ledger was opened read-only (``LedgerAccess/readOnly``), and `operation` would write.
    case readOnly(path: String, operation: String)
}

extension LedgerError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let reason) where Self.isURL(path):
            return "Cannot open the code ledger at \(path): \(reason); expected a reachable PostgreSQL server, a user "
                + "allowed to log in to the database (and to create the ledger's schema when it is new)."
        case .corrupt(let path, let reason) where Self.isURL(path):
            return "The code ledger at \(path) looks damaged: \(reason). OfferKit stopped without using it. Restore "
                + "the ledger's schema from a backup (PostgreSQL's amcheck extension checks its indexes)."
        case .notALedger(let path) where Self.isURL(path):
            return "The schema of \(path) holds tables of its own, not an OfferKit code ledger; expected an OfferKit "
                + "ledger or a new schema (?schema=NAME)."
        case .cannotOpen(let path, let reason):
            return "Cannot open the code ledger at \(path): \(reason); expected a writable path to an OfferKit "
                + "ledger file (it is created when missing, its folder must exist)."
        case .corrupt(let path, let reason):
            return "The code ledger at \(path) looks damaged: \(reason). OfferKit stopped without using it. Check "
                + "the file with: sqlite3 \(Self.shellQuoted(path)) 'PRAGMA integrity_check' and restore it from a "
                + "backup, removing its -wal and -shm files with it (if it is not an OfferKit ledger at all, give the "
                + "path of one)."
        case .notALedger(let path):
            return "The file at \(path) is an SQLite database with tables of its own, not an OfferKit code ledger; "
                + "expected an OfferKit ledger file or a new path."
        case .newerSchema(let path, let unknownMigrations):
            return "The code ledger at \(path) was written by a newer OfferKit (unknown schema versions: "
                + "\(unknownMigrations.joined(separator: ", "))); expected a ledger of this version: update OfferKit."
        case .olderSchema(let path, let applied, let current):
            let state =
                applied == 0
                ? "holds no ledger tables yet" : "has schema version \(applied) of \(current) (an older OfferKit's)"
            return "The code ledger at \(path) \(state), and this command only reads the ledger, so it changed "
                + "nothing; expected an up-to-date ledger: run `offerkit codes ledger migrate --ledger "
                + "\(Self.shellQuoted(path))` to bring it up to date (commands that write the ledger do too)."
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
        case .invalidBatch(let campaign, let offer, let problem):
            return "The batch of offer \"\(offer)\" in campaign \"\(campaign)\" cannot be recorded: \(problem)."
        case .quarterLimitExceeded(let batch, let appAppleId, let limit, let recorded):
            let kind = batch.environment == .production ? "production" : "sandbox"
            let requested = max(0, batch.redemptions)
            let (sum, overflow) = recorded.addingReportingOverflow(requested)
            let total = overflow ? "more than \(ProblemText.grouped(Int.max))" : ProblemText.grouped(sum)
            return "Recording \(StoredBatch.describe(batch)) would take app \(appAppleId) to \(total) \(kind) codes in "
                + "\(batch.quarter): the batch asks for \(ProblemText.grouped(requested))"
                + (batch.redemptionLimit > 1 ? " (codes times redemption limit)" : "")
                + " and the ledger already holds \(ProblemText.grouped(recorded)), over Apple's limit of "
                + "\(ProblemText.grouped(limit)) \(kind) codes per app per quarter. Nothing of the batch was recorded "
                + "(another run may have recorded codes since the campaign was checked); ask for fewer codes."
        case .activeOfferLimitExceeded(let campaign, let appAppleId, let active, let limit):
            return "With campaign \"\(campaign)\", \(active) offers of app \(appAppleId) would be active in the "
                + "ledger, over Apple's limit of \(limit) active offers per app; nothing was changed (another run may "
                + "have recorded offers since the campaign was checked). Mark older offers inactive first."
        case .unknownCampaign(let campaign):
            return "The ledger has no campaign \"\(campaign)\"; expected the name of a campaign recorded by "
                + "`offerkit codes generate` or `offerkit codes import`, or another ledger."
        case .invalidRecipient(let position, let problem):
            return "The recipient id\(position.map { " on line \($0)" } ?? "") \(problem)."
        case .offerInactive(let offer, let campaign):
            return "Offer \"\(offer)\" of campaign \"\(campaign)\" is marked inactive in the ledger, so its codes "
                + "cannot be redeemed and none was handed out; expected an active offer (switch it on in App Store "
                + "Connect and record that with `offerkit codes deactivate --activate`, or use another offer)."
        case .noCodeLeft(let campaign, let offer, let environment, let assigned, let stored):
            let kind = environment == .production ? "production" : "sandbox"
            return "No unassigned \(kind) code is left for offer \"\(offer)\" of campaign \"\(campaign)\": "
                + "\(ProblemText.grouped(assigned)) of \(ProblemText.grouped(stored)) are handed out, and nothing "
                + "was assigned now. Add codes to the offer (a new batch in the campaign, then `offerkit codes "
                + "generate` or `offerkit codes import`)."
        case .nothingToAssign(let campaign, let offer, let environment, let reason):
            let kind = environment == .production ? "production" : "sandbox"
            return "Offer \"\(offer)\" of campaign \"\(campaign)\" has no \(kind) codes to hand out: \(reason); "
                + "nothing was assigned."
        case .connectRunInProgress(let campaign):
            return "Another `offerkit codes apply` or `codes fetch` is working on campaign \"\(campaign)\" with this "
                + "ledger; nothing was sent. Wait for it to finish, then run again (two runs at once could create "
                + "App Store Connect resources twice)."
        case .connectResourceConflict(let resource, let problem):
            return "The ledger cannot record App Store Connect resource \(resource): \(problem); nothing was recorded."
        case .readOnly(let path, let operation):
            return "The code ledger at \(path) was opened read-only, so it cannot \(operation); nothing was written. "
                + "Expected a command that writes to the ledger for that."
        }
    }

    /// Whether the ledger is named by a URL (a PostgreSQL ledger) rather than a file path.
    static func isURL(_ path: String) -> Bool {
        path.hasPrefix("postgres://") || path.hasPrefix("postgresql://")
    }

    /// `path` in single quotes for a POSIX shell.
    static func shellQuoted(_ path: String) -> String {
        "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
