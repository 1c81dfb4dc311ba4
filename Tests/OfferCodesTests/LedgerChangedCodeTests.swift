import Foundation
import OfferCodes
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

/// A code changed in place, in its row and its unique index alike (an `UPDATE`: SQLite's
/// `integrity_check` still answers `ok`), is never handed out: a claim checks the row it hands
/// out against the row's digest in its own transaction, and refuses it; the bulk reads (status,
/// export, copy) check every code. (The per-claim scan of every batch this replaces caught it
/// too; the first design without it handed out the changed code, which was never generated.)
@Suite("Code ledger: a code changed in place")
struct LedgerChangedCodeTests {
    typealias F = LedgerFixtures

    static let scope = AssignmentScope(campaign: "winter", offer: "W", today: CalendarDate("2027-01-20")!)

    /// Changes one byte of `code` in its row (and index) behind the ledger's back.
    static func change(_ code: String, to changed: String, in ledger: CodeLedger) async throws {
        try await ledger.store.executeUnchecked("UPDATE codes SET code_key = '\(changed)' WHERE code_key = '\(code)'")
    }

    static func expectCorrupt<T>(_ ledger: CodeLedger, _ body: () async throws -> T) async {
        let error = await #expect(throws: LedgerError.self) { _ = try await body() }
        guard case .corrupt(let path, let reason)? = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(path == ledger.name)
        #expect(
            reason.contains("does not match its digest") || reason.contains("differ from the ones recorded"),
            "\(reason)")
        #expect(!reason.contains("WX"), "the changed code is not shown: \(reason)")
    }

    /// SQLite keeps a NUL byte inside a text (PostgreSQL refuses one): a code given one behind the
    /// ledger's back is read whole and fails its digest, rather than read as far as the NUL (as
    /// a C string would be) and handed out as the code it was.
    @Test func aCodeWithANulInsideIsRefused() async throws {
        try await LedgerBackend.sqlite.withNewLedger { ledger in
            try await F.recordWinterPersonalAndShared(ledger)
            try await ledger.store.executeUnchecked(
                "UPDATE codes SET code_key = code_key || char(0) || 'X' WHERE code_key = 'W0'")
            await Self.expectCorrupt(ledger) { try await ledger.claim(recipient: "ann", scope: Self.scope) }
            await Self.expectCorrupt(ledger) { try await ledger.status(campaign: "winter", today: Self.scope.today) }
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func theNextCodeChangedIsRefusedByClaimsStatusAndExport(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            try await F.recordWinterPersonalAndShared(ledger)
            try await Self.change("W0", to: "WX", in: ledger)
            if ledger.store is SQLiteLedgerStore {
                // What SQLite checks of its own file does not see it.
                try await ledger.checkIntegrity(thorough: true)
            }
            for recipient in ["ann", "bob", "ann"] {
                await Self.expectCorrupt(ledger) { try await ledger.claim(recipient: recipient, scope: Self.scope) }
            }
            await Self.expectCorrupt(ledger) { try await ledger.status(campaign: "winter", today: Self.scope.today) }
            await Self.expectCorrupt(ledger) {
                try await ledger.assign(recipients: ["cat"], scope: Self.scope, channel: .export)
            }
            await Self.expectCorrupt(ledger) { try await F.codes(ledger, campaign: "winter") }
            #expect(try await F.assignments(ledger, campaign: "winter").isEmpty, "nothing was handed out")
            // The other offer is unaffected.
            let shared = try await ledger.claim(
                recipient: "ann", scope: AssignmentScope(campaign: "winter", offer: "S", today: Self.scope.today))
            #expect(shared.code.code == "SHARED")
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aChangedCodeAlreadyHandedOutIsRefusedToItsHolder(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            try await F.recordWinterPersonalAndShared(ledger)
            #expect(try await ledger.claim(recipient: "ann", scope: Self.scope).code.code == "W0")
            try await Self.change("W0", to: "WX", in: ledger)
            await Self.expectCorrupt(ledger) { try await ledger.claim(recipient: "ann", scope: Self.scope) }
            await Self.expectCorrupt(ledger) { try await F.held(ledger, ["ann"], scope: Self.scope) }
            // Claims of codes that were not changed go on.
            #expect(try await ledger.claim(recipient: "bob", scope: Self.scope).code.code == "W1")
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aLaterCodeChangedIsRefusedWhenItsTurnComes(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            try await F.recordWinterPersonalAndShared(ledger)
            try await Self.change("W1", to: "WX", in: ledger)
            #expect(try await ledger.claim(recipient: "ann", scope: Self.scope).code.code == "W0")
            await Self.expectCorrupt(ledger) { try await ledger.claim(recipient: "bob", scope: Self.scope) }
            #expect(try await F.held(ledger, ["bob"], scope: Self.scope) == [nil])
        }
    }
}
