import AppleTestChain
import Foundation
import OfferAppleVerification
import OfferRetentionEndpoint
import OfferSigning
import Testing

/// ``RetentionOfferCheck``: the promotional offer a decider of one's own names is asked about
/// before it is signed; a refusal answers `{}` as a hook failure that is not remembered.
@Suite("Get Retention Message: the offer check")
struct RetentionOfferCheckTests {
    actor Asked {
        private(set) var offers: [String] = []
        var refuse = true
        func add(_ offer: String) { offers.append(offer) }
        func allow() { refuse = false }
    }

    /// A decider of one's own that decides as `rules` do.
    struct Mine: RetentionDecider {
        let rules: RuleDecider
        func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
            rules.decision(for: request, bundleId: bundleId)
        }
    }

    @Test func rulesAreNotAskedTheyAreCheckedAtStart() async throws {
        let asked = Asked()
        let responder = try RetentionResponder(
            apps: RetentionFixtures.apps, settings: RetentionFixtures.settings(),
            decider: RuleDecider([RetentionExample.bundleId: RetentionFixtures.rules]),
            clock: .fixed(RetentionFixtures.now),
            offerCheck: RetentionOfferCheck { _, _, offer in
                await asked.add(offer)
                return "refused"
            })
        guard case .answered(let answer) = await responder.respond(to: try RetentionFixtures.body()) else {
            Issue.record("not answered")
            return
        }
        #expect(answer.kind == .promotionalOffer)
        #expect(await asked.offers.isEmpty)
    }

    @Test func aRefusedOfferIsAnsweredEmptyAndAskedAgainOnRetry() async throws {
        let asked = Asked()
        let check = RetentionOfferCheck { bundleId, productId, offerIdentifier in
            await asked.add("\(bundleId) \(productId) \(offerIdentifier)")
            return await asked.refuse ? "the ledger knows only comeback" : nil
        }
        // A decider of one's own: the rules' choice, checked at each answer.
        let responder = try RetentionResponder(
            apps: RetentionFixtures.apps, settings: RetentionFixtures.settings(),
            decider: Mine(rules: RuleDecider([RetentionExample.bundleId: RetentionFixtures.rules])),
            clock: .fixed(RetentionFixtures.now), offerCheck: check)
        let body = try RetentionFixtures.body(productId: "com.example.offerkit.monthly")
        guard case .answered(let refused) = await responder.respond(to: body) else {
            Issue.record("not answered")
            return
        }
        #expect(refused.kind == .hookFailed && refused.body == Array("{}".utf8))
        #expect("\(refused.hookFailure.map { "\($0)" } ?? "")".contains("the ledger knows only comeback"))
        #expect(await asked.offers.count == 1)
        #expect(
            await asked.offers.first?.hasPrefix("\(RetentionExample.bundleId) com.example.offerkit.monthly ") == true)
        // Not remembered: the retry of the same request is decided and checked again, and signed now.
        await asked.allow()
        guard case .answered(let signed) = await responder.respond(to: body) else {
            Issue.record("not answered")
            return
        }
        #expect(signed.kind == .promotionalOffer, "\(String(decoding: signed.body, as: UTF8.self))")
        #expect(await asked.offers.count == 2)
        // A decision without a promotional offer asks nothing.
        guard
            case .answered = await responder.respond(
                to: try RetentionFixtures.body(productId: "com.example.offerkit.weekly"))
        else { return }
        #expect(await asked.offers.count == 2)
    }
}
