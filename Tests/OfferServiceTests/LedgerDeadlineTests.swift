import Foundation
import HummingbirdTesting
import InteropSupport
import Logging
import OfferCodes
import OfferJSON
import OfferLedger
import OfferSigning
import Testing

@testable import OfferService

/// Ledger calls run under the request timeout: a ledger held by another writer makes claims
/// answer 503 `timeout` on time, those still waiting for their transaction too.
@Suite("Ledger calls and the request timeout")
struct LedgerDeadlineTests {
    typealias F = CodeLedgerFixtures

    /// Another process's writer: a connection of its own that holds the ledger file's write lock
    /// (an open `BEGIN IMMEDIATE` transaction) until released, then rolls back.
    struct LockHolder {
        let ledger: CodeLedger

        /// Opens the ledger at `path` and returns once it holds the lock.
        static func lock(path: String) async throws -> LockHolder {
            let ledger = try await CodeLedger.sqlite(path: path)
            try await ledger.store.executeUnchecked("BEGIN IMMEDIATE")
            return LockHolder(ledger: ledger)
        }

        func unlock() async throws {
            try await ledger.store.executeUnchecked("ROLLBACK")
        }
    }

    @Test(
        "claims behind a locked ledger answer 503 timeout after the request timeout, queued ones too; retries then get one code each"
    )
    func lockedLedgerTimesOut() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("ledger.sqlite").path
        let ledger = try await CodeLedger.sqlite(path: path)
        try await F.populate(ledger, halfCodes: 10)
        let service = try F.service(ledger: ledger) { $0.limits.requestTimeoutSeconds = 1 }
        let app = ServiceFixtures.application(service)
        let recipients = (0..<6).map { "waiting-\($0)" }
        try await app.test(.router) { client in
            // The campaign's app is read (and remembered) before the lock is taken.
            #expect(try await client.claim("first").status == 200)
            let holder = try await LockHolder.lock(path: path)
            let responses = try await withThrowingTaskGroup(of: ServiceResponse.self) { group in
                for recipient in recipients { group.addTask { try await client.claim(recipient) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try await holder.unlock()
            #expect(
                responses.allSatisfy { $0.status == 503 && $0.problemSlug == "timeout" }, "\(responses.map(\.text))")
            // Every answer came while the lock was still held (it is released only now, below),
            // and as the request timeout, not as the ledger's own failure after SQLite's 10 s
            // wait (that would be ledger-unavailable): the deadline does not wait for the ledger.
            // (No bound on the time: the suite's other tests share the two cores.)

            // A claim whose transaction had begun commits once the lock is free (its retry gets
            // the same code, not new); those still waiting for their transaction were dropped.
            var codes: [String: String] = [:]
            for recipient in recipients {
                let retry = try await client.claim(recipient)
                #expect(retry.status == 200, "\(retry.text)")
                codes[recipient] = retry.string("code")
            }
            #expect(Set(codes.values).count == recipients.count)
            var recorded: [String: String] = [:]
            try await ledger.forEachAssignment(campaign: F.campaignName, offer: "Half") {
                recorded[$0.recipient] = $0.code.code
            }
            for recipient in recipients { #expect(recorded[recipient] == codes[recipient]) }
        }
    }

    @Test("a ledger failure is 503 ledger-unavailable saying nothing of its cause; the log has it")
    func failureIsUnavailable() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("ledger.sqlite").path
        let ledger = try await CodeLedger.sqlite(path: path)
        try await F.populate(ledger)
        // A second writer holds the ledger longer than SQLite waits (10 s) while the request may
        // take 20 s: the claim's own ledger call fails.
        let service = try F.service(ledger: ledger) { $0.limits.requestTimeoutSeconds = 20 }
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        try await service.testApplication(operations: service.routedOperations, logger: logger).test(.router) {
            client in
            #expect(try await client.claim("first").status == 200)
            let holder = try await LockHolder.lock(path: path)
            let response = try await client.claim("second")
            try await holder.unlock()
            #expect(response.status == 503 && response.problemSlug == "ledger-unavailable", "\(response.text)")
            #expect(response.headers[.retryAfter] == "1")
            let detail = response.string("detail") ?? ""
            #expect(!detail.contains("SQL") && !detail.contains("busy") && !detail.contains(path), "\(detail)")
            #expect(try await client.claim("second").status == 200)
        }
        let failure = records.all.first { $0.message == "ledger failed" }
        #expect(failure?.level == .error, "\(records.all.map(\.message))")
        #expect(failure?.metadata["error"]?.contains("busy") == true, "\(failure?.metadata ?? [:])")
    }
}
