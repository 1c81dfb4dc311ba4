import AppleTestChain
import Foundation
import InteropSupport
import LateGlobalExecutor
import OfferAppleVerification
import OfferJSON
import OfferRetentionEndpoint
import OfferSigning
import Testing

@Suite("Get Retention Message: the decider hook")
struct RetentionDeciderTests {
    /// Decides from the customer's original transaction, as a team's own data would.
    struct LoyaltyDecider: RetentionDecider {
        func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
            request.originalTransactionId == "2000000900000001"
                ? .promotionalOffer(
                    messageIdentifier: RetentionExample.offerMessage, productId: "com.example.offerkit.monthly",
                    offerIdentifier: "WINBACK50", signature: .v2)
                : .message(messageIdentifier: RetentionExample.plainMessage)
        }
    }

    struct Failure: Error {}

    struct ThrowingDecider: RetentionDecider {
        func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
            throw Failure()
        }
    }

    /// Sleeps far past any budget; ignores cancellation when told to.
    /// Decides only once its gate opens: the test opens it after the request was answered (or a
    /// safety net does after 120 s, so that a responder that waits for it fails instead of hanging).
    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var state = (open: false, started: false, decided: false)
        /// Deciders that wait for ``open()`` ignoring cancellation.
        private var waiters: [CheckedContinuation<Void, Never>] = []
        init() {
            Task { [self] in
                try? await Task.sleep(for: .seconds(120))
                open()
            }
        }
        var isOpen: Bool { lock.withLock { state.open } }
        /// Whether the decider was asked.
        var started: Bool { lock.withLock { state.started } }
        /// Whether the decider returned its decision.
        var decided: Bool { lock.withLock { state.decided } }
        func open() {
            let opened = lock.withLock {
                state.open = true
                defer { waiters = [] }
                return waiters
            }
            for waiter in opened { waiter.resume() }
        }
        /// Suspends until ``open()``, whether or not the task is cancelled: a decider that ignores
        /// cancellation, without spinning (a cancelled `Task.sleep` returns at once, so a loop of them
        /// never gives its thread up, and with Swift's pool one thread wide nothing could open the gate).
        func waitIgnoringCancellation() async {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let openNow = lock.withLock {
                    if state.open { return true }
                    waiters.append(waiter)
                    return false
                }
                if openNow { waiter.resume() }
            }
        }
        func markStarted() { lock.withLock { state.started = true } }
        func markDecided() { lock.withLock { state.decided = true } }
    }

    struct SlowDecider: RetentionDecider {
        let gate: Gate
        var ignoresCancellation = false
        func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
            gate.markStarted()
            if ignoresCancellation {
                await gate.waitIgnoringCancellation()
            } else {
                while !gate.isOpen { try await Task.sleep(for: .milliseconds(5)) }
            }
            gate.markDecided()
            return .message(messageIdentifier: RetentionExample.plainMessage)
        }
    }

    /// Returns a fixed decision.
    struct FixedDecider: RetentionDecider {
        let decision: RetentionDecision
        func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
            decision
        }
    }

    @Test("a custom decider's decision is answered and signed")
    func customDecider() async throws {
        let responder = try RetentionFixtures.responder(decider: LoyaltyDecider())
        guard case .answered(let answer) = await responder.respond(to: try RetentionFixtures.body(productId: "any"))
        else {
            Issue.record("refused")
            return
        }
        #expect(answer.kind == .promotionalOffer && answer.hookFailure == nil)
        try AnswerChecks.expect(answer.body, is: "promotionalOffer")
    }

    @Test("a decider that throws gets the request answered {}, not remembered")
    func throwingDecider() async throws {
        let responder = try RetentionFixtures.responder(decider: ThrowingDecider())
        let body = try RetentionFixtures.body()
        guard case .answered(let answer) = await responder.respond(to: body) else {
            Issue.record("refused")
            return
        }
        #expect(answer.kind == .hookFailed && answer.body == Array("{}".utf8))
        #expect(answer.hookFailure == .threw(errorType: String(reflecting: Failure.self)))
        #expect(responder.rememberedAnswers == 0)
    }

    @Test("a decider that overruns its budget gets {} when the budget is spent, cancelled or not")
    func overrunningDecider() async throws {
        for ignoresCancellation in [false, true] {
            let gate = Gate()
            let decider = SlowDecider(gate: gate, ignoresCancellation: ignoresCancellation)
            let responder = try RetentionFixtures.responder(
                decider: decider, settings: RetentionFixtures.settings(budget: .milliseconds(100)))
            guard case .answered(let answer) = await responder.respond(to: try RetentionFixtures.body()) else {
                Issue.record("refused")
                return
            }
            // Answered while the decider still waits for its gate: when the budget was spent, not
            // when the decider ended.
            #expect(!gate.decided, "the answer waited for the decider (ignoresCancellation: \(ignoresCancellation))")
            gate.open()
            #expect(answer.kind == .hookFailed && answer.body == Array("{}".utf8))
            #expect(answer.hookFailure == .overran(budget: .milliseconds(100)))
        }
    }

    /// Set in the child process of ``budgetStartsWithTheDecider()``: the seconds each job waits.
    static let lateMachineVariable = "OFFERKIT_TESTS_LATE_GLOBAL_EXECUTOR"

    @Test("the budget starts with the decider: time its task waits for a thread does not count")
    func budgetStartsWithTheDecider() async throws {
        // A machine where each task waits 300 ms for a thread; the budget is 100 ms. A timer started
        // beside the decider's task (an earlier design, failed in CI) fired before the decider began;
        // started in it, it cannot start before the decider has run to its first suspension. The
        // delay is Swift's global executor's own (every job it is given runs 300 ms late), so it is
        // made in a child process: this test binary again, running only this test.
        if let delay = ProcessInfo.processInfo.environment[Self.lateMachineVariable].flatMap(Double.init) {
            offerkit_tests_delay_global_jobs(delay)
            let decision = RetentionDecision.message(messageIdentifier: RetentionExample.plainMessage)
            let responder = try RetentionFixtures.responder(
                decider: FixedDecider(decision: decision),
                settings: RetentionFixtures.settings(budget: .milliseconds(100)))
            for _ in 0..<3 {
                guard case .answered(let answer) = await responder.respond(to: try RetentionFixtures.body()) else {
                    Issue.record("refused")
                    return
                }
                #expect(
                    answer.kind == .message && answer.hookFailure == nil, "\(String(describing: answer.hookFailure))")
            }
            return
        }
        try #require(ChildProcess.canRerunTestBinary, "the test binary cannot be started again here")
        let child = try ChildProcess.testBinary(
            running: "budgetStartsWithTheDecider", environment: [Self.lateMachineVariable: "0.3"], watchdog: 300)
        let ending = await child.ending()
        #expect(ending == .exited(0), "the child (a late machine) failed:\n\(child.stdout)")
        #expect(child.stdout.contains("Test run with 1 test"), "the child ran no such test:\n\(child.stdout)")
    }

    @Test("a caller already cancelled does not ask the decider: {} at once, .stopped")
    func alreadyCancelledCaller() async throws {
        let gate = Gate()
        let responder = try RetentionFixtures.responder(
            decider: SlowDecider(gate: gate), settings: RetentionFixtures.settings(budget: .seconds(60)))
        let body = try RetentionFixtures.body()
        let call = Task {
            while !Task.isCancelled { await Task.yield() }
            return await responder.respond(to: body)
        }
        call.cancel()
        guard case .answered(let answer) = await call.value else {
            Issue.record("refused")
            return
        }
        #expect(answer.hookFailure == .stopped)
        try await Task.sleep(for: .milliseconds(200))
        #expect(!gate.started, "the decider was asked for a request already stopped")
        gate.open()
    }

    @Test("a caller cancelled while the decider decides (the client left) is answered {} at once, not remembered")
    func cancelledCaller() async throws {
        let gate = Gate()
        let responder = try RetentionFixtures.responder(
            decider: SlowDecider(gate: gate), settings: RetentionFixtures.settings(budget: .seconds(60)))
        let body = try RetentionFixtures.body()
        let call = Task { await responder.respond(to: body) }
        while !gate.started { try await Task.sleep(for: .milliseconds(5)) }
        call.cancel()
        guard case .answered(let answer) = await call.value else {
            Issue.record("refused")
            return
        }
        #expect(!gate.decided, "the answer waited for the decider")
        gate.open()
        #expect(answer.kind == .hookFailed && answer.body == Array("{}".utf8))
        #expect(answer.hookFailure == .stopped, "not an overrun: the budget was a minute")
        #expect(responder.rememberedAnswers == 0)
    }

    @Test("a decision that cannot be signed is a hook failure: {}")
    func unusableDecisions() async throws {
        let badRequest = AdvancedCommerce.SubscriptionModifyInAppRequest(
            requestInfo: .init(requestReferenceId: UUID()), transactionId: "1", retainBillingCycle: true,
            addItems: [.init(sku: "A", description: "d", displayName: "n", price: 1)],
            changeItems: [
                .init(
                    sku: "B", currentSKU: "C", description: "d", displayName: "n", price: 1, effective: .immediately,
                    reason: .upgrade)
            ])
        let decisions: [RetentionDecision] = [
            .promotionalOffer(messageIdentifier: UUID(), productId: "", offerIdentifier: "X", signature: .v2),
            .promotionalOffer(messageIdentifier: UUID(), productId: "p", offerIdentifier: "a\u{2063}b", signature: .v1),
            .alternateProduct(messageIdentifier: UUID(), productId: "bad\nid"),
            .advancedCommerceInfo(messageIdentifier: UUID(), request: badRequest),
        ]
        for decision in decisions {
            let responder = try RetentionFixtures.responder(decider: FixedDecider(decision: decision))
            guard case .answered(let answer) = await responder.respond(to: try RetentionFixtures.body()) else {
                Issue.record("refused")
                return
            }
            #expect(answer.kind == .hookFailed && answer.body == Array("{}".utf8), "\(decision)")
            if case .unusable? = answer.hookFailure {
            } else {
                Issue.record("\(String(describing: answer.hookFailure))")
            }
        }
    }

    @Test("a decider's appAccountToken is signed into a V1 offer and answered in lower case; V2 has no such field")
    func appAccountToken() async throws {
        let token = UUID(uuidString: "E3B1C9A2-5D4F-4A6B-8C7D-9E0F1A2B3C4D")!
        let v1 = RetentionDecision.promotionalOffer(
            messageIdentifier: RetentionExample.offerMessage, productId: "com.example.offerkit.monthly",
            offerIdentifier: "WINBACK50", signature: .v1, appAccountToken: token)
        let responder = try RetentionFixtures.responder(decider: FixedDecider(decision: v1))
        guard case .answered(let answer) = await responder.respond(to: try RetentionFixtures.body()) else {
            Issue.record("refused")
            return
        }
        #expect(answer.kind == .promotionalOffer && answer.hookFailure == nil)
        try AnswerChecks.expect(answer.body, is: "promotionalOffer", appAccountToken: token)
        // Signed over the token: the same signature without it does not verify.
        let v1Answer = try #require(try AnswerChecks.member(of: answer.body)?.value["promotionalOfferSignatureV1"])
        let withoutToken = LegacyPromotionalOfferSignature(
            keyId: RetentionFixtures.keyId,
            nonce: try #require(AnswerChecks.string(v1Answer, "nonce").flatMap(UUID.init(uuidString:))),
            timestamp: try #require(v1Answer["timestamp"]?.exactInteger),
            signature: try #require(AnswerChecks.string(v1Answer, "encodedSignature")),
            productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")
        #expect(throws: VerificationError.signatureMismatch) {
            try JWSVerifier(publicKeyPEM: RetentionFixtures.publicKeyPEM).verify(
                withoutToken, bundleId: RetentionExample.bundleId)
        }

        let v2 = RetentionDecision.promotionalOffer(
            messageIdentifier: RetentionExample.offerMessage, productId: "com.example.offerkit.monthly",
            offerIdentifier: "WINBACK50", signature: .v2, appAccountToken: token)
        let refusing = try RetentionFixtures.responder(decider: FixedDecider(decision: v2))
        guard case .answered(let refused) = await refusing.respond(to: try RetentionFixtures.body()) else {
            Issue.record("refused")
            return
        }
        #expect(refused.kind == .hookFailed && refused.body == Array("{}".utf8))
        guard case .unusable(let reason)? = refused.hookFailure else {
            Issue.record("\(String(describing: refused.hookFailure))")
            return
        }
        #expect(reason.hasPrefix("promotionalOffer.appAccountToken:"), "\(reason)")
    }

    @Test("no rule matches: {} (decision default); an app without rules likewise")
    func noMatchingRule() async throws {
        let responder = try RetentionFixtures.responder()
        guard
            case .answered(let answer) = await responder.respond(
                to: try RetentionFixtures.body(productId: "com.example.offerkit.unknown"))
        else {
            Issue.record("refused")
            return
        }
        #expect(answer.kind == .default && answer.body == Array("{}".utf8))
        #expect(RuleDecider([:]).decision(for: try Self.request(), bundleId: "x") == .default)
    }

    @Test("rules: the first match wins; productId exact; a rule with neither matches everything")
    func firstMatch() throws {
        let first = RetentionDecision.message(messageIdentifier: UUID())
        let second = RetentionDecision.message(messageIdentifier: UUID())
        let fallback = RetentionDecision.message(messageIdentifier: UUID())
        let rules = try RetentionRules([
            RetentionRule(productId: "a", locale: "en", decision: first),
            RetentionRule(productId: "a", decision: second),
            RetentionRule(decision: fallback),
        ])
        #expect(rules.decision(productId: "a", userLocale: "en-GB") == first)
        #expect(rules.decision(productId: "a", userLocale: "de-DE") == second)
        #expect(rules.decision(productId: "ab", userLocale: "en-GB") == fallback)
        #expect(rules.decision(productId: "A", userLocale: "en") == fallback)
        #expect(throws: RetentionRulesError.self) {
            try RetentionRules(Array(repeating: RetentionRule(decision: first), count: RetentionRules.maximumCount + 1))
        }
    }

    static func request() throws -> DecodedRealtimeRequestBody {
        DecodedRealtimeRequestBody(
            originalTransactionId: "1", appAppleId: 1, productId: "p", userLocale: "en-US", requestIdentifier: UUID(),
            signedDate: 0, environment: "Sandbox")
    }
}
