import AppleTestChain
import Foundation
import OfferRetentionEndpoint
import OfferSigning
import Testing

@Suite("Get Retention Message: answers remembered for retries, bounded")
struct RetentionReplayCacheTests {
    /// A clock the test moves.
    final class MovingClock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds: TimeInterval = 0

        func move(to seconds: TimeInterval) { lock.withLock { self.seconds = seconds } }

        var clock: SigningClock {
            SigningClock { [self] in RetentionFixtures.now.addingTimeInterval(lock.withLock { seconds }) }
        }
    }

    static func answer(_ responder: RetentionResponder, _ body: [UInt8]) async throws -> RetentionAnswer {
        guard case .answered(let answer) = await responder.respond(to: body) else {
            throw CancellationError()
        }
        return answer
    }

    @Test("at most replayCacheCapacity answers: the oldest is forgotten first")
    func capacity() async throws {
        let responder = try RetentionFixtures.responder(settings: RetentionFixtures.settings(capacity: 2))
        let bodies = try (0..<3).map { _ in try RetentionFixtures.body() }
        let first = try await Self.answer(responder, bodies[0])
        _ = try await Self.answer(responder, bodies[1])
        _ = try await Self.answer(responder, bodies[2])
        #expect(responder.rememberedAnswers == 2)
        let again = try await Self.answer(responder, bodies[0])
        #expect(again.replay == .fresh && again.body != first.body, "forgotten, so signed afresh")
        #expect(try await Self.answer(responder, bodies[2]).replay == .replayed)
        #expect(responder.rememberedAnswers == 2)
    }

    @Test("an answer is remembered maxRequestAgeSeconds, then forgotten")
    func lifetime() async throws {
        let moving = MovingClock()
        let responder = try RetentionFixtures.responder(
            settings: RetentionFixtures.settings(maxAge: 60), clock: moving.clock)
        let body = try RetentionFixtures.body()
        let first = try await Self.answer(responder, body)
        moving.move(to: 59)
        #expect(try await Self.answer(responder, body).body == first.body)
        // Past its lifetime the request itself is stale: refused, and its answer is gone.
        moving.move(to: 61)
        guard case .unauthorized(.stale) = await responder.respond(to: body) else {
            Issue.record("a stale request was answered")
            return
        }
        // A new request evicts the expired answer.
        _ = try await Self.answer(
            responder, try RetentionFixtures.body(signedDate: RetentionFixtures.nowMilliseconds + 61_000))
        #expect(responder.rememberedAnswers == 1)
    }

    @Test("a request signed up to 60 s ahead of this clock gets the same bytes for as long as it is not stale")
    func signedAheadOfTheClock() async throws {
        let moving = MovingClock()
        let responder = try RetentionFixtures.responder(
            settings: RetentionFixtures.settings(maxAge: 60), clock: moving.clock)
        // Apple's clock 50 s ahead: the request is fresh until 110 s on this clock.
        let body = try RetentionFixtures.body(signedDate: RetentionFixtures.nowMilliseconds + 50_000)
        let first = try await Self.answer(responder, body)
        for seconds in [59.0, 61, 109] {
            moving.move(to: seconds)
            let again = try await Self.answer(responder, body)
            #expect(again.body == first.body && again.replay == .replayed, "at \(seconds) s: signed afresh")
        }
        moving.move(to: 111)
        guard case .unauthorized(.stale) = await responder.respond(to: body) else {
            Issue.record("a stale request was answered")
            return
        }
    }

    @Test("a capacity of 0 remembers nothing; every answer is fresh")
    func disabled() async throws {
        let responder = try RetentionFixtures.responder(settings: RetentionFixtures.settings(capacity: 0))
        let body = try RetentionFixtures.body()
        let one = try await Self.answer(responder, body)
        let two = try await Self.answer(responder, body)
        #expect(one.body != two.body && two.replay == .fresh && responder.rememberedAnswers == 0)
    }

    @Test("setup errors are named: two apps with one App Apple ID, no environment, ages out of range")
    func setupErrors() throws {
        let signer = RetentionFixtures.signer()
        let other = RetentionFixtures.signer(RetentionExample.otherBundleId)
        #expect(
            throws: RetentionSetupError.duplicateAppAppleId(
                7, bundleIds: [RetentionExample.bundleId, RetentionExample.otherBundleId])
        ) {
            try RetentionResponder(
                apps: [RetentionApp(appAppleId: 7, signer: signer), RetentionApp(appAppleId: 7, signer: other)],
                settings: RetentionFixtures.settings(), decider: RuleDecider([:]))
        }
        #expect(throws: RetentionSetupError.noEnvironments) {
            try RetentionResponder(
                apps: [], settings: RetentionFixtures.settings(environments: []), decider: RuleDecider([:]))
        }
        for age in [9, 3601] {
            #expect(throws: RetentionSetupError.self) {
                try RetentionResponder(
                    apps: [], settings: RetentionFixtures.settings(maxAge: age), decider: RuleDecider([:]))
            }
        }
        #expect(throws: RetentionSetupError.invalidAppAppleId(0, bundleId: RetentionExample.bundleId)) {
            try RetentionResponder(
                apps: [RetentionApp(appAppleId: 0, signer: signer)], settings: RetentionFixtures.settings(),
                decider: RuleDecider([:]))
        }
    }
}
