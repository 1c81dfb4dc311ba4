import Foundation
import OfferCodes
import OfferKitSigningCLI
import OfferLedger

/// `codes export --recipients` and `--reprint`: rows from the ledger's assignments.
extension CodesExport {
    /// Hands out a code to each recipient (the one they already hold, if any), then writes one row
    /// each. The ledger's transaction does only the database's work; the rows are rendered after it
    /// committed, from a read that holds no lock writers wait for. The output gets every row or
    /// nothing: stdout is spooled until the last row.
    func assign(_ people: [ExportRecipient], scope: AssignmentScope, ledger: CodeLedger, exporter: CodeExporter)
        async throws
    {
        // A view, not a copy: 1,000,000 ids would be 16 MB more at the export's peak.
        let ids = people.lazy.map(\.id)
        let counts: AssignmentCounts
        do {
            counts = try await ledger.assign(recipients: ids, scope: scope, channel: .export)
        } catch let error as LedgerError {
            throw await Self.explained(error, recipients: Array(ids), scope: scope, ledger: ledger)
        }
        _ = try await output(label: "handing out codes", spool: true) { sink, progress in
            var index = 0
            var records = exporter.records(hasRecipients: true)
            try await ledger.lookUpAssignments(recipients: ids, scope: scope) { id, found in
                guard let found else {
                    throw LedgerError.databaseFailure(
                        operation: "hand out codes of offer \"\(scope.offer)\" in campaign \"\(scope.campaign)\"",
                        reason: "a recipient holds no code right after every recipient got one")
                }
                let recipient = try Self.recipient(people, at: index, for: found, scope: scope)
                index += 1
                progress.update(index)
                try records.add(found, recipient: recipient) { try sink.write($0) }
            }
            try records.finish { try sink.write($0) }
            return index
        }
        Self.note(
            "offer \"\(scope.offer)\" (\(scope.environment.rawValue.lowercased())): \(counts.new) recipient"
                + (counts.new == 1 ? "" : "s") + " got a code now"
                + (counts.held > 0 ? ", \(counts.held) already held theirs (the same code again)" : ""))
    }

    /// The rows of recipients who hold a code, nothing handed out; the others are listed on stderr.
    func reprint(_ people: [ExportRecipient], scope: AssignmentScope, ledger: CodeLedger, exporter: CodeExporter)
        async throws
    {
        let ids = people.lazy.map(\.id)
        let what = "offer \"\(scope.offer)\" (\(scope.environment.rawValue.lowercased()))"
        var missing = 0
        let count = try await output(label: "reprinting codes") { sink, progress in
            var count = 0
            var index = 0
            var records = exporter.records(hasRecipients: true)
            try await ledger.lookUpAssignments(recipients: ids, scope: scope) { id, found in
                defer { index += 1 }
                guard let found else {
                    missing += 1
                    Self.note("recipient \"\(id)\" holds no code of \(what): left out")
                    return
                }
                count += 1
                progress.update(count)
                try records.add(found, recipient: try Self.recipient(people, at: index, for: found, scope: scope)) {
                    try sink.write($0)
                }
            }
            try records.finish { try sink.write($0) }
            return count
        }
        guard count > 0 else {
            throw CLIError.invalidInput(
                "none of the \(people.count) recipients holds a code of \(what) in campaign \(scope.campaign), so "
                    + "there is nothing to reprint; leave out --reprint to hand them codes")
        }
        if missing > 0 {
            Self.note(
                "printed \(count) code\(count == 1 ? "" : "s"); \(missing) recipient\(missing == 1 ? "" : "s") "
                    + "without one listed above")
        }
    }

    /// Every code handed out in the campaign (optionally of one offer), in the order handed out.
    func reprintAll(campaign: Campaign, ledger: CodeLedger?, exporter: CodeExporter) async throws {
        let count = try await output(label: "reprinting codes") { sink, progress in
            var count = 0
            var records = exporter.records(hasRecipients: true)
            try await ledger?.forEachAssignment(campaign: campaign.name, offer: offer) { assignment in
                guard includes(assignment.code.environment) else { return }
                count += 1
                progress.update(count)
                try records.add(assignment, recipient: nil) { try sink.write($0) }
            }
            try records.finish { try sink.write($0) }
            return count
        }
        if count == 0 {
            throw CLIError.invalidInput(
                "no code of campaign \(campaign.name)\(offer.map { ", offer \"\($0)\"" } ?? "") was handed out yet"
                    + environmentNote + ": hand codes out with `offerkit codes export --recipients FILE` or "
                    + "`offerkit codes claim`")
        }
    }

    /// The recipient at `index`, which the ledger's answers follow in order.
    static func recipient(
        _ people: [ExportRecipient], at index: Int, for assignment: CodeAssignment, scope: AssignmentScope
    ) throws -> ExportRecipient {
        guard index < people.count, people[index].id == assignment.recipient else {
            throw LedgerError.databaseFailure(
                operation: "hand out codes of offer \"\(scope.offer)\" in campaign \"\(scope.campaign)\"",
                reason: "the ledger answered for the recipients in another order than asked")
        }
        return people[index]
    }

    /// `error`, or for too few codes left for a list, how many the list needs and how many are left
    /// (the ledger's counts leave out the recipients of the list it was handing out to).
    static func explained(
        _ error: LedgerError, recipients: [String], scope: AssignmentScope, ledger: CodeLedger
    ) async -> any Error {
        guard case .noCodeLeft = error, recipients.count > 1 else { return error }
        var without = 0
        let status: CampaignStatus
        do {
            try await ledger.lookUpAssignments(recipients: recipients, scope: scope) { _, found in
                if found == nil { without += 1 }
            }
            status = try await ledger.status(campaign: scope.campaign, today: scope.today)
        } catch {
            return error
        }
        let batches = status.offers.first { $0.name == scope.offer }?.batches.filter {
            $0.batch.environment == scope.environment
        }
        let personal = batches?.contains { !$0.isShared } ?? true
        let left = (batches ?? []).filter { $0.isShared != personal && !$0.expired }.reduce(0) { $0 + $1.left }
        let environment = scope.environment.rawValue.lowercased()
        let remaining =
            personal
            ? "\(left) unassigned \(environment) code\(left == 1 ? "" : "s") left"
            : "\(left) redemption\(left == 1 ? "" : "s") of its shared \(environment) codes left"
        return CLIError.invalidInput(
            "Offer \"\(scope.offer)\" of campaign \"\(scope.campaign)\" has \(remaining), but \(without) of the "
                + "\(recipients.count) recipients hold no code yet; nothing was assigned and nothing written. Add codes "
                + "to the offer (a new batch in the campaign, then `offerkit codes generate` or `offerkit codes "
                + "import`), or shorten the list.")
    }

    /// A line on stderr, prefixed `offerkit: `.
    static func note(_ text: String) { Output.note(text) }
}
