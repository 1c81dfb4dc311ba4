import Foundation
import OfferCodes
import OfferLedger

@testable import LedgerTestSupport
@testable import OfferLedger

/// A child process of the claim proofs (`LedgerClaimProofTests`): it opens the ledger, claims a
/// code for each recipient of its share, one `claim(recipient:scope:)` call at a time, and
/// appends each answer to its log as soon as it has it (one `write` per line:
/// `recipient TAB code TAB 1 if newly assigned, else 0`), then a line `done`. An error ends the
/// run with a line `error TAB recipient TAB error`.
///
/// The parent passes the worker as JSON in ``variable``; the child test
/// `proofClaimWorkerChild` runs it.
struct ClaimWorker: Codable {
    /// Set (to the worker, as JSON) in a claim worker's process only.
    static let variable = "OFFERKIT_PROOF_CLAIM_WORKER"

    /// The ledger's locator (``LedgerStore/locator``).
    var ledger: String
    /// The log the worker appends to.
    var log: String
    var campaign: String
    var offer: String
    /// The day claims are made on (`YYYY-MM-DD`).
    var today: String
    /// Which share of the recipients this worker claims, of how many shares of how many recipients.
    var share: Int
    var shares: Int
    var recipientCount: Int
    /// Every how many of its own recipients the worker also claims the next share's recipient of
    /// the same rank (1: after each).
    var overlapEvery = 1
    /// Where in its list of recipients the worker starts (a worker that takes over the share of
    /// one that was killed starts a little before the last claim that one logged).
    var startAt = 0
    /// Once its share is claimed, the worker waits to be killed instead of exiting, so that a
    /// process the parent means to kill is always still running when it is killed.
    var waitsToBeKilled = false
    /// A file that exists once the codes supplied during the claims (by other processes) are in
    /// the ledger: until it exists, a claim that finds no code left is tried again.
    var suppliedMarker: String?

    /// The `n`th recipient.
    static func recipient(_ n: Int) -> String { "recipient-\(n)" }

    /// The worker's recipients, in the order it claims them: its own share (the numbers equal to
    /// `share` modulo `shares`), every `overlapEvery`th followed by the next share's recipient of
    /// the same rank. So those recipients are in two shares, and the two workers reach them at
    /// about the same time.
    func recipients() -> [Int] {
        var numbers: [Int] = []
        var rank = 0
        while rank * shares < recipientCount {
            let base = rank * shares
            if base + share < recipientCount { numbers.append(base + share) }
            let next = base + (share + 1) % shares
            if rank % overlapEvery == 0, next < recipientCount { numbers.append(next) }
            rank += 1
        }
        return numbers
    }

    /// The worker as the child reads it from its environment.
    static func fromEnvironment() throws -> ClaimWorker? {
        guard let text = ProcessInfo.processInfo.environment[variable] else { return nil }
        return try JSONDecoder().decode(ClaimWorker.self, from: Data(text.utf8))
    }

    /// The environment that makes a child this worker.
    func environment() throws -> [String: String] {
        [Self.variable: String(decoding: try JSONEncoder().encode(self), as: UTF8.self)]
    }

    /// Claims the share (in the child process).
    func run() async throws {
        try await LedgerPlace(locator: ledger).withLedger { try await run(ledger: $0) }
    }

    private func run(ledger: CodeLedger) async throws {
        let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        func append(_ line: String) {
            var bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
        guard let day = CalendarDate(today) else { throw CocoaError(.coderInvalidValue) }
        let scope = AssignmentScope(campaign: campaign, offer: offer, today: day)
        for number in recipients().dropFirst(startAt) {
            let recipient = Self.recipient(number)
            do {
                let assignment = try await claim(recipient, scope: scope, ledger: ledger)
                append("\(recipient)\t\(assignment.code.code)\t\(assignment.isNew ? 1 : 0)")
            } catch {
                append("error\t\(recipient)\t\(error)")
                throw error
            }
        }
        append("done")
        if waitsToBeKilled {
            let deadline = Date().addingTimeInterval(300)
            while Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        }
    }

    /// One claim; while codes are still being supplied, "no code left" means "not yet".
    private func claim(_ recipient: String, scope: AssignmentScope, ledger: CodeLedger) async throws -> CodeAssignment {
        while true {
            // Looked at before the claim: a claim that starts after the marker exists sees every code.
            let supplied = suppliedMarker.map { FileManager.default.fileExists(atPath: $0) } ?? true
            do {
                return try await ledger.claim(recipient: recipient, scope: scope)
            } catch LedgerError.noCodeLeft where !supplied {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }
}
