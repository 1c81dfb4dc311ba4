import Foundation
import Testing

@testable import LedgerTestSupport
@testable import OfferCodes
@testable import OfferLedger

/// The customer prices `codes plan` and `codes apply` resolve to price points, as the ledger
/// records them: each test runs on SQLite and on PostgreSQL.
@Suite("Ledger: resolved price points")
struct LedgerPricePointTests {
    typealias F = LedgerFixtures

    static func price(_ territory: String, _ customerPrice: String, _ pricePoint: String) -> ResolvedPrice {
        ResolvedPrice(
            query: PricePointQuery(product: .subscription(id: "6450000001"), territory: territory),
            customerPrice: customerPrice, pricePoint: pricePoint)
    }

    @Test(arguments: LedgerBackend.allCases)
    func theFirstRecordedPricePointOfAPriceIsKept(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("spring", offers: ["Half"])
            try await F.record(
                ledger, F.batch("spring", "Half", codeCount: 1), of: campaign, codes: F.numberedCodes("HALF", 1))
            #expect(try await ledger.recordedPricePoints(campaign: "spring").isEmpty)
            let usa = Self.price("USA", "4.99", "pp-usa-499")
            let jpn = Self.price("JPN", "480", "pp-jpn-480")
            #expect(try await ledger.recordPricePoints([usa, jpn], campaign: "spring") == [usa, jpn])
            // Another run found another id for the same price (App Store Connect's list changed): the
            // recorded one stays, and the answer says so; a new price is added after the others.
            let gbr = Self.price("GBR", "3.99", "pp-gbr-399")
            let recorded = try await ledger.recordPricePoints(
                [Self.price("USA", "4.99", "pp-usa-other"), gbr], campaign: "spring")
            #expect(recorded == [usa, jpn, gbr])
            #expect(try await ledger.recordedPricePoints(campaign: "spring") == [usa, jpn, gbr])
            // The same price of another product, or of another campaign, is its own.
            let gems = ResolvedPrice(
                query: PricePointQuery(product: .inAppPurchase(id: "6450000001"), territory: "USA"),
                customerPrice: "4.99", pricePoint: "pp-gems-499")
            #expect(try await ledger.recordPricePoints([gems], campaign: "spring").last == gems)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aCampaignTheLedgerDoesNotHoldIsRefused(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            await #expect(throws: LedgerError.unknownCampaign(campaign: "autumn")) {
                try await ledger.recordPricePoints([Self.price("USA", "4.99", "pp")], campaign: "autumn")
            }
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aDamagedRowIsReportedAsDamage(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("spring", offers: ["Half"])
            try await F.record(
                ledger, F.batch("spring", "Half", codeCount: 1), of: campaign, codes: F.numberedCodes("HALF", 1))
            _ = try await ledger.recordPricePoints([Self.price("USA", "4.99", "pp")], campaign: "spring")
            try await ledger.store.executeUnchecked("UPDATE price_points SET customer_price = '4.990'")
            let error = await #expect(throws: LedgerError.self) {
                try await ledger.recordedPricePoints(campaign: "spring")
            }
            let message = error?.localizedDescription ?? ""
            #expect(message.contains("customer_price"), "\(message)")
        }
    }
}
