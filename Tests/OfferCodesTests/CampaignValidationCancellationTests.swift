import Foundation
import OfferCodes
import Testing

@testable import LedgerTestSupport

/// Validation and planning stop when their task is cancelled (a service request that timed out),
/// while reading alone, and any code outside a cancelled task, run to the end as before.
@Suite("Campaign validation and planning: cancellation")
struct CampaignValidationCancellationTests {
    typealias Fixtures = CampaignFixtures

    /// A large campaign: `count` consumable offers, each with its one-time-use batch and no custom
    /// codes (so the one problem is the number of active offers).
    static func largeCampaign(offers count: Int) -> Campaign {
        Fixtures.campaign(
            offers: (0..<count).map {
                var offer = Fixtures.offer(type: .consumable, mode: .oneTime, referenceName: "Gems \($0)")
                offer.oneTimeUseCodes = Array(offer.oneTimeUseCodes.prefix(1))
                offer.oneTimeUseCodes[0].count = 1
                offer.customCodes = []
                return offer
            })
    }

    /// Runs `body` in a task that is cancelled before `body` starts.
    static func inCancelledTask<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async -> Result<
        Value, any Error
    > {
        let task = Task { () throws -> Value in
            withUnsafeCurrentTask { $0?.cancel() }
            #expect(Task.isCancelled)
            return try body()
        }
        return await task.result
    }

    @Test func validatingJSONInACancelledTaskThrowsCancellationError() async throws {
        let bytes = Fixtures.bytes(Fixtures.json(Self.largeCampaign(offers: 5_000)))
        let result = await Self.inCancelledTask { try CampaignValidator(today: Fixtures.today).validate(json: bytes) }
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func validatingAHugeListOfEmptyOffersInACancelledTaskThrowsCancellationError() async throws {
        let bytes =
            Array(#"{"name":"x","app":{},"offers":["#.utf8)
            + Array(repeating: Array("{},".utf8), count: 100_000).flatMap { $0 } + Array("{}]}".utf8)
        let result = await Self.inCancelledTask { try CampaignValidator(today: Fixtures.today).validate(json: bytes) }
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func validatingABuiltCampaignInACancelledTaskThrowsCancellationError() async throws {
        let campaign = Self.largeCampaign(offers: 5_000)
        let result = await Self.inCancelledTask { try CampaignValidator(today: Fixtures.today).validate(campaign) }
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func planningInACancelledTaskThrowsCancellationError() async throws {
        let campaign = Self.largeCampaign(offers: 5_000)
        let result = await Self.inCancelledTask {
            try RequestPlanner().plan(campaign, customCodes: PlannerFixtures.ledgerCodes(campaign))
        }
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func readingAloneIgnoresCancellation() async throws {
        let campaign = Self.largeCampaign(offers: 20)
        let bytes = Fixtures.bytes(Fixtures.json(campaign))
        let result = await Self.inCancelledTask { try CampaignReader(today: Fixtures.today).read(json: bytes) }
        #expect(try result.get() == campaign)
    }

    @Test func outsideACancelledTaskTheSameWorkRunsToTheEnd() async throws {
        let campaign = Self.largeCampaign(offers: 5_000)
        let report = try CampaignValidator(today: Fixtures.today).validate(
            json: Fixtures.bytes(Fixtures.json(campaign)))
        #expect(report.campaign == campaign)
        #expect(report.problems.map(\.rule) == ["active-offers-limit"])
        let requests = try RequestPlanner().plan(campaign, customCodes: PlannerFixtures.ledgerCodes(campaign))
        #expect(requests.count == 2 * campaign.offers.count)
        let running = await Task { try CampaignValidator(today: Fixtures.today).validate(campaign) }.result
        #expect(try running.get().map(\.rule) == ["active-offers-limit"])
    }
}
