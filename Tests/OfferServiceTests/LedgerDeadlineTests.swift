import Foundation
import HummingbirdTesting
import InteropSupport
import Logging
import OfferCodes
import OfferJSON
import OfferSigning
import Testing

@testable import OfferService

/// Ledger calls run on the service's ledger threads under the request timeout: a ledger held by
/// another writer makes claims answer 503 `timeout` on time, also those still waiting for a thread.
@Suite("Ledger calls and the request timeout")
struct LedgerDeadlineTests {
    typealias F = CodeLedgerFixtures

    /// Another process's writer: records a batch and waits inside its transaction (holding the
    /// ledger's write lock) until released, then rolls back. It blocks a thread of its own
    /// (``OwnedThread``); the test awaits it without holding one.
    final class LockHolder: @unchecked Sendable {
        private let release = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var ended: CheckedContinuation<Void, Never>?
        private var hasEnded = false
        struct Released: Error {}

        /// Starts the writer on its own thread and returns once it holds the lock.
        static func start(path: String) async throws -> LockHolder {
            let ledger = try SQLiteLedger(path: path)
            let holder = LockHolder()
            await withCheckedContinuation { (inside: CheckedContinuation<Void, Never>) in
                OwnedThread.start { [release = holder.release] in
                    _ = try? ledger.recordBatch(F.batch("Half", index: 1, count: 1), campaign: F.campaign) { _ in
                        inside.resume()
                        release.wait()  // on the writer's own thread
                        throw Released()
                    }
                    holder.end()
                }
            }
            return holder
        }

        private func end() {
            let waiting = lock.withLock {
                hasEnded = true
                defer { ended = nil }
                return ended
            }
            waiting?.resume()
        }

        /// Releases the lock and waits for the writer to roll back.
        func unlock() async {
            release.signal()
            await withCheckedContinuation { continuation in
                let over = lock.withLock {
                    if !hasEnded { ended = continuation }
                    return hasEnded
                }
                if over { continuation.resume() }
            }
        }
    }

    @Test(
        "claims behind a locked ledger answer 503 timeout after the request timeout, queued ones too; retries then get one code each"
    )
    func lockedLedgerTimesOut() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("ledger.sqlite").path
        let ledger = try SQLiteLedger(path: path)
        try F.populate(ledger, halfCodes: 10)
        let service = try F.service(ledger: ledger) { $0.limits.requestTimeoutSeconds = 1 }
        let app = ServiceFixtures.application(service)
        let recipients = (0..<(ServiceLedger.defaultThreadCount + 2)).map { "waiting-\($0)" }
        try await app.test(.router) { client in
            // The campaign's app is read (and remembered) before the lock is taken.
            #expect(try await client.claim("first").status == 200)
            let holder = try await LockHolder.start(path: path)
            let responses = try await withThrowingTaskGroup(of: ServiceResponse.self) { group in
                for recipient in recipients { group.addTask { try await client.claim(recipient) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            await holder.unlock()
            #expect(
                responses.allSatisfy { $0.status == 503 && $0.problemSlug == "timeout" }, "\(responses.map(\.text))")
            // Every answer came while the lock was still held (it is released only now, below),
            // and as the request timeout, not as the ledger's own failure after SQLite's 10 s
            // wait (that would be ledger-unavailable): the deadline does not wait for the ledger.
            // (No bound on the time: the suite's other tests share the two cores.)

            var codes: [String: String] = [:]
            var retriedNew = 0
            for recipient in recipients {
                let retry = try await client.claim(recipient)
                #expect(retry.status == 200, "\(retry.text)")
                codes[recipient] = retry.string("code")
                if retry.json?["new"] == .bool(true) { retriedNew += 1 }
            }
            #expect(Set(codes.values).count == recipients.count)
            // The calls still waiting for a thread at the timeout were skipped: at least those are new now.
            #expect(retriedNew >= recipients.count - ServiceLedger.defaultThreadCount)
            var recorded: [String: String] = [:]
            try ledger.forEachAssignment(campaign: F.campaignName, offer: "Half") {
                recorded[$0.recipient] = $0.code.code
            }
            for recipient in recipients { #expect(recorded[recipient] == codes[recipient]) }
        }
    }

    @Test("a ledger failure is 503 ledger-unavailable saying nothing of its cause; the log has it")
    func failureIsUnavailable() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("ledger.sqlite").path
        let ledger = try SQLiteLedger(path: path)
        try F.populate(ledger)
        // A second writer holds the ledger longer than SQLite waits (10 s) while the request may
        // take 20 s: the claim's own ledger call fails.
        let service = try F.service(ledger: ledger) { $0.limits.requestTimeoutSeconds = 20 }
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        try await service.testApplication(operations: service.routedOperations, logger: logger).test(.router) {
            client in
            #expect(try await client.claim("first").status == 200)
            let holder = try await LockHolder.start(path: path)
            let response = try await client.claim("second")
            await holder.unlock()
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
