import Foundation
import HummingbirdTesting
import OfferCodes
import OfferLedger
import OfferSigning
import Testing

@testable import OfferService

/// A campaign name in a path (`GET /v1/campaigns/{name}/status`) or a body (`POST /v1/codes/claim`)
/// is checked, once decoded, against the campaign file's rule (1-64 letters, digits, `-`, `_`, `.`)
/// before any ledger is read: a name no campaign can have is a 422 naming its member, never a lookup.
@Suite("Campaign names are checked by the campaign rule before the ledger is read")
struct CampaignNameTests {
    typealias F = CodeLedgerFixtures

    /// Percent-encoded path segments whose decoded name breaks the rule.
    static let badSegments = [
        "..%2F..%2Fetc", "spring%2F2027", "spring%202027", "caf%C3%A9", "a%0Ab", "%2E%2E%2F", "spring%3B2027",
        String(repeating: "n", count: 65),
    ]

    @Test("a status path whose decoded name breaks the rule is a 422 naming `name`", arguments: badSegments)
    func statusName(segment: String) async throws {
        let ledger = try await CodeLedger.inMemory()
        try await F.populate(ledger)
        try await ServiceFixtures.application(try F.service(ledger: ledger)).test(.router) { client in
            let response = try await client.send(.get, F.statusPath(segment), key: F.codesOnly.secret)
            #expect(response.status == 422 && response.problemSlug == "invalid-field", "\(segment): \(response.text)")
            #expect(response.string("field") == "name", "\(segment): \(response.text)")
            // Too long is said as for any string; anything else names the rule.
            let expected = segment.count > CampaignLimits.maximumNameLength ? "at most 64 characters" : "campaign name"
            #expect(response.string("detail")?.contains(expected) == true, "\(segment): \(response.text)")
        }
    }

    @Test("a claim whose campaign breaks the rule is a 422 naming `campaign`", arguments: ["../../etc", "a b", "é"])
    func claimCampaign(name: String) async throws {
        let ledger = try await CodeLedger.inMemory()
        try await F.populate(ledger)
        try await ServiceFixtures.application(try F.service(ledger: ledger)).test(.router) { client in
            let response = try await client.claim("user-1", campaign: name, key: F.codesOnly.secret)
            #expect(response.status == 422 && response.problemSlug == "invalid-field", "\(name): \(response.text)")
            #expect(response.string("field") == "campaign", "\(name): \(response.text)")
        }
    }

    @Test("names the rule allows reach the ledger: letters, digits, '-', '_', '.', percent-encoded or not")
    func allowedNames() async throws {
        let ledger = try await CodeLedger.inMemory()
        try await F.populate(ledger)
        try await ServiceFixtures.application(try F.service(ledger: ledger)).test(.router) { client in
            let known = try await client.send(.get, F.statusPath("spring%2D2027"), key: F.codesOnly.secret)
            #expect(known.status == 200, "\(known.text)")
            for name in ["Spring_2027.v2", "x"] {
                let unknown = try await client.send(.get, F.statusPath(name), key: F.codesOnly.secret)
                #expect(unknown.status == 404 && unknown.problemSlug == "unknown-campaign", "\(name): \(unknown.text)")
            }
        }
    }

    static let names: [(String, Bool)] = [
        ("spring-2027", true), ("Spring_2027.v2", true), (String(repeating: "n", count: 64), true), ("..", true),
        ("", false), (String(repeating: "n", count: 65), false), ("../etc", false), ("a b", false), ("é", false),
        ("a\nb", false),
    ]

    @Test("the schema format agrees with the campaign rule", arguments: names)
    func formatAgreesWithTheRule(name: String, valid: Bool) throws {
        #expect(StringRules.Format.campaignName.matches(name) == valid)
        #expect((CampaignLimits.nameProblem(name) == nil) == valid)
        let regex = try NSRegularExpression(pattern: StringRules.Format.campaignName.pattern)
        let range = NSRange(name.startIndex..., in: name)
        #expect((regex.firstMatch(in: name, range: range)?.range == range) == valid)
    }
}
