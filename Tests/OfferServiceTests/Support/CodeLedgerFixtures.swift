import Foundation
import HummingbirdTesting
import OfferCodes
import OfferLedger
import OfferService
import OfferSigning
import Testing

@testable import LedgerTestSupport

/// A ledger holding campaign `spring-2027` of app 1234567890, and services over it, for the claim
/// and status operations. "Today" is 2027-02-01 (the services' clock).
///
/// Offers and their batches (all production unless said, quarter 2027-Q1):
/// - `Half`: personal custom codes HALF0, HALF1, HALF2 (expire 2027-05-31).
/// - `Gems`: one shared custom code GEMSX, redemption limit 2.
/// - `Trial`: one-time-use batch 1 (2 codes TRIALA, TRIALB imported), batch 2 in the sandbox
///   (1 code SANDBOX1 imported).
/// - `Later`: one-time-use batch of 5 codes, not imported yet.
/// - `Old`: custom code OLD1, the offer marked inactive.
/// - `Expired`: custom code EXP1 that expired on 2027-01-15.
enum CodeLedgerFixtures {
    static let campaignName = "spring-2027"
    static let appAppleId = "1234567890"
    static let today = CalendarDate("2027-02-01")!
    /// 2027-02-01T12:00:00Z.
    static let clock = SigningClock.fixed(Date(timeIntervalSince1970: 1_801_483_200))
    static let offers = ["Half", "Gems", "Trial", "Later", "Old", "Expired"]

    /// A key that may only hand out codes and read status.
    static let codesOnly = APIKey.generate(name: "codes-only", scopes: [.codes])
    /// A key for campaigns, without `codes`.
    static let campaignsOnly = APIKey.generate(name: "campaigns-only", scopes: [.campaigns])

    /// Consumable offers of the demo app (``ServiceFixtures/app``), as the ledger's own tests make them.
    static let campaign = LedgerFixtures.campaign(campaignName, appAppleId: appAppleId, offers: offers)

    static func batch(
        _ offer: String, _ kind: LedgerBatch.Kind = .custom, index: Int = 0, redemptionLimit: Int = 1, count: Int,
        expires: String? = "2027-05-31", environment: CodeEnvironment = .production
    ) -> LedgerBatch {
        LedgerBatch(
            campaign: campaignName, offer: offer, kind: kind, index: index, quarter: "2027-Q1",
            redemptionLimit: redemptionLimit, codeCount: count, expirationDate: expires.flatMap(CalendarDate.init),
            environment: environment)
    }

    /// Records the campaign's batches (see the type's documentation) in `ledger`.
    static func populate(_ ledger: CodeLedger, halfCodes: Int = 3) async throws {
        func record(_ batch: LedgerBatch, _ codes: [String]) async throws {
            try await ledger.recordBatch(batch, campaign: campaign, codes: codes.isEmpty ? .none : .given(codes))
        }
        func attach(_ offer: String, _ index: Int, _ codes: [String]) async throws {
            try await ledger.attachCodes(toOneTimeUseBatch: index, offer: offer, campaign: campaignName, codes: codes)
        }
        try await record(batch("Half", count: halfCodes), (0..<halfCodes).map { "HALF\($0)" })
        try await record(batch("Gems", redemptionLimit: 2, count: 1), ["GEMSX"])
        try await record(batch("Trial", .oneTimeUse, count: 2), [])
        try await attach("Trial", 0, ["TRIALA", "TRIALB"])
        try await record(batch("Trial", .oneTimeUse, index: 1, count: 1, environment: .sandbox), [])
        try await attach("Trial", 1, ["SANDBOX1"])
        try await record(batch("Later", .oneTimeUse, count: 5), [])
        try await record(batch("Old", count: 1), ["OLD1"])
        try await ledger.setOfferActive(false, offer: "Old", campaign: campaignName)
        try await record(batch("Expired", count: 1, expires: "2027-01-15"), ["EXP1"])
    }

    /// Runs `body` with a populated ledger of `backend`; nothing for PostgreSQL without a server.
    static func withLedger(
        _ backend: LedgerBackend, halfCodes: Int = 3, _ body: (CodeLedger) async throws -> Void
    ) async throws {
        try await backend.withNewLedger { ledger in
            try await populate(ledger, halfCodes: halfCodes)
            try await body(ledger)
        }
    }

    /// The codes `recipients` hold of `offer` (`nil`: none), read from the ledger.
    static func heldCodes(_ ledger: CodeLedger, _ recipients: [String], offer: String = "Half") async throws
        -> [String?]
    {
        var codes: [String?] = []
        try await ledger.lookUpAssignments(
            recipients: recipients, scope: AssignmentScope(campaign: campaignName, offer: offer, today: today)
        ) { codes.append($1?.code.code) }
        return codes
    }

    /// The fixtures' service with `ledger`, the fixed clock and the codes keys.
    static func service(
        ledger: CodeLedger?, _ change: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws -> OfferService {
        var configuration = ServiceFixtures.configuration
        configuration.apiKeys += [codesOnly.key, campaignsOnly.key]
        change(&configuration)
        return try OfferService(configuration: configuration, ledger: ledger, clock: clock)
    }

    /// A claim body.
    static func claim(
        _ recipient: String, offer: String = "Half", campaign: String = campaignName, environment: String? = nil
    ) -> String {
        var members = [
            #""campaign":\#(quoted(campaign))"#, #""offer":\#(quoted(offer))"#, #""recipient":\#(quoted(recipient))"#,
        ]
        if let environment { members.append(#""environment":\#(quoted(environment))"#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    static let claimPath = "/v1/codes/claim"
    static func statusPath(_ campaign: String = campaignName) -> String { "/v1/campaigns/\(campaign)/status" }
}

extension TestClientProtocol {
    /// Claims a code of `offer` for `recipient` with `key` (the admin key unless given).
    func claim(
        _ recipient: String, offer: String = "Half", campaign: String = CodeLedgerFixtures.campaignName,
        environment: String? = nil, key: String? = ServiceFixtures.admin.secret,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ServiceResponse {
        try await send(
            .post, CodeLedgerFixtures.claimPath,
            json: CodeLedgerFixtures.claim(recipient, offer: offer, campaign: campaign, environment: environment),
            key: key, sourceLocation: sourceLocation)
    }
}
