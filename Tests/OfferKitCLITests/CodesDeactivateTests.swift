import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes deactivate`: inactive offers stop counting against App Store Connect's 10 active offers.
@Suite("offerkit codes deactivate")
struct CodesDeactivateTests {
    /// Ten offers, each with a one-time-use batch: the app's limit of active offers, all used.
    static let tenOffers = CampaignFiles.campaign(
        name: "ten",
        offers: (1...10).map { CampaignFiles.offer("Offer \($0)", oneTimeUse: [CampaignFiles.oneTimeUse(count: 10)]) })

    static let eleventh = CampaignFiles.campaign(
        name: "eleventh", offers: [CampaignFiles.offer("Eleventh", custom: [CampaignFiles.given(["ELEVEN27"])])])

    @Test func deactivatingAnOfferMakesRoomForANewCampaign() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let ten = try files.write(Self.tenOffers, to: "ten.json")
        let new = try files.write(Self.eleventh, to: "eleventh.json")
        let generate = try await files.run("generate", ten)
        #expect(generate.status == 0, "\(generate)")
        await #expect(try files.run("validate", ten).status == 0, "a campaign's own offers do not count twice")

        func isRefusedForTooManyOffers() async throws -> Bool {
            let validate = try await files.run("validate", new, ["--format", "json"])
            let rules = validate.json?["problems"]?.array?.compactMap { $0["rule"]?.string } ?? []
            #expect(validate.status == (rules.isEmpty ? 0 : 4), "\(validate)")
            #expect(rules.allSatisfy { $0 == "active-offers-limit" }, "\(validate)")
            return rules == ["active-offers-limit"]
        }
        await #expect(try isRefusedForTooManyOffers(), "11 active offers for one app")
        let text = try await files.run("validate", new)
        Expect.failure(text, status: 4, mentioning: ["10"])
        await Expect.failure(try files.run("generate", new), status: 4)

        let deactivate = try await files.run("deactivate", ten, ["--offer", "Offer 3"])
        #expect(deactivate.status == 0, "\(deactivate)")
        #expect(deactivate.output == "Offer 3: inactive")
        await #expect(try !isRefusedForTooManyOffers(), "Offer 3 no longer counts")
        let valid = try await files.run("validate", new)
        #expect(valid.status == 0 && valid.output.hasPrefix("valid: eleventh "), "\(valid)")

        let activate = try await files.run("deactivate", ten, ["--offer", "Offer 3", "--activate"])
        #expect(activate.status == 0 && activate.output == "Offer 3: active", "\(activate)")
        await #expect(try isRefusedForTooManyOffers(), "Offer 3 counts again")
    }

    @Test func unknownOfferIsRefused() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let ten = try files.write(Self.tenOffers, to: "ten.json")
        // Not in the campaign file: a usage error naming the offers there are.
        await Expect.failure(
            try files.run("deactivate", ten, ["--offer", "Offer 11"]), status: 2,
            mentioning: ["\"Offer 11\"", "\"Offer 1\"", "\"Offer 10\""])
        // In the file, but the campaign was never recorded.
        await Expect.failure(
            try files.run("deactivate", ten, ["--offer", "Offer 1"]), status: 4, mentioning: ["\"Offer 1\"", "ten"])
        // Needs a ledger.
        await Expect.failure(
            try files.run("deactivate", ten, ["--offer", "Offer 1", "--no-ledger"], ledger: .none), status: 2,
            mentioning: ["--no-ledger"])
    }
}
