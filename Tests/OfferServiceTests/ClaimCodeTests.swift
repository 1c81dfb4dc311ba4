import Foundation
import HummingbirdTesting
import OfferCodes
import OfferJSON
import OfferLedger
import OfferSigning
import Testing

@testable import LedgerTestSupport
@testable import OfferService

/// `POST /v1/codes/claim`, on an SQLite and a PostgreSQL ledger (``CodeLedgerFixtures``).
@Suite("POST /v1/codes/claim")
struct ClaimCodeTests {
    typealias F = CodeLedgerFixtures

    /// Runs `body` with a client of the fixtures' service over a populated ledger of `backend`.
    static func withService(
        _ backend: LedgerBackend, halfCodes: Int = 3,
        _ body: @Sendable (any TestClientProtocol, CodeLedger) async throws -> Void
    ) async throws {
        try await F.withLedger(backend, halfCodes: halfCodes) { ledger in
            let app = ServiceFixtures.application(try F.service(ledger: ledger))
            try await app.test(.router) { client in try await body(client, ledger) }
        }
    }

    /// Checks `response` against the `CodeClaim` schema and returns its members.
    static func claimed(
        _ response: ServiceResponse, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONValue {
        #expect(response.status == 200, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
        let json = try #require(response.json, sourceLocation: sourceLocation)
        try SchemaValidator().validate(json, against: CodeSchemas.claim)
        return json
    }

    @Test(
        "a claim hands out the next personal code, the same one again to the same recipient, then 409 when none is left",
        arguments: LedgerBackend.allCases)
    func claimsOnceEach(backend: LedgerBackend) async throws {
        try await Self.withService(backend) { client, _ in
            let first = try Self.claimed(try await client.claim("user-1"))
            #expect(first["code"] == .string("HALF0"))
            #expect(
                first["url"] == .string("https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=HALF0"))
            #expect(first["campaign"] == .string("spring-2027") && first["offer"] == .string("Half"))
            #expect(first["recipient"] == .string("user-1") && first["kind"] == .string("custom"))
            #expect(first["batch"] == .integer(1) && first["redemptionLimit"] == .integer(1))
            #expect(first["shared"] == .bool(false) && first["expirationDate"] == .string("2027-05-31"))
            #expect(first["environment"] == .string("PRODUCTION") && first["channel"] == .string("claim"))
            #expect(first["new"] == .bool(true))
            guard case .string(let assignedAt)? = first["assignedAt"] else {
                Issue.record("assignedAt is not a string")
                return
            }
            let date = try #require(try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(assignedAt))
            #expect(abs(date.timeIntervalSinceNow) < 120, "assignedAt \(assignedAt) is not now")
            #expect(assignedAt.hasSuffix("Z"))

            #expect(try Self.claimed(try await client.claim("user-2"))["code"] == .string("HALF1"))
            let again = try Self.claimed(try await client.claim("user-1"))
            #expect(again["code"] == .string("HALF0") && again["new"] == .bool(false))
            #expect(again["assignedAt"] == first["assignedAt"])
            #expect(try Self.claimed(try await client.claim("user-3"))["code"] == .string("HALF2"))

            let none = try await client.claim("user-4")
            #expect(none.status == 409, "\(none.text)")
            #expect(none.problemSlug == "no-code-left")
            #expect(none.json?["assigned"] == .integer(3) && none.json?["stored"] == .integer(3))
            #expect(none.string("detail")?.contains("3 of 3") == true, "\(none.text)")
            // Who has a code still gets it.
            #expect(try Self.claimed(try await client.claim("user-2"))["code"] == .string("HALF1"))
        }
    }

    @Test(
        "sandbox codes with environment sandbox; a shared code up to its redemption limit",
        arguments: LedgerBackend.allCases)
    func sandboxAndShared(backend: LedgerBackend) async throws {
        try await Self.withService(backend) { client, _ in
            let sandbox = try Self.claimed(try await client.claim("tester", offer: "Trial", environment: "sandbox"))
            #expect(sandbox["code"] == .string("SANDBOX1") && sandbox["environment"] == .string("SANDBOX"))
            #expect(sandbox["kind"] == .string("oneTimeUse") && sandbox["batch"] == .integer(2))
            let production = try Self.claimed(try await client.claim("tester", offer: "Trial"))
            #expect(production["code"] == .string("TRIALA") && production["environment"] == .string("PRODUCTION"))

            for recipient in ["a", "b"] {
                let shared = try Self.claimed(try await client.claim(recipient, offer: "Gems"))
                #expect(shared["code"] == .string("GEMSX") && shared["shared"] == .bool(true))
                #expect(shared["redemptionLimit"] == .integer(2))
            }
            let full = try await client.claim("c", offer: "Gems")
            #expect(full.status == 409 && full.problemSlug == "no-code-left", "\(full.text)")
            #expect(full.json?["assigned"] == .integer(2) && full.json?["stored"] == .integer(2))
        }
    }

    @Test(
        "unknown campaign and offer are 404s; inactive, expired and not-imported offers are 409s",
        arguments: LedgerBackend.allCases)
    func problems(backend: LedgerBackend) async throws {
        try await Self.withService(backend) { client, _ in
            let campaign = try await client.claim("u", campaign: "summer-2027")
            #expect(campaign.status == 404 && campaign.problemSlug == "unknown-campaign", "\(campaign.text)")
            #expect(campaign.string("field") == "campaign")
            let offer = try await client.claim("u", offer: "Quarter price")
            #expect(offer.status == 404 && offer.problemSlug == "unknown-offer", "\(offer.text)")
            #expect(offer.string("field") == "offer")
            let inactive = try await client.claim("u", offer: "Old")
            #expect(inactive.status == 409 && inactive.problemSlug == "offer-inactive", "\(inactive.text)")
            let later = try await client.claim("u", offer: "Later")
            #expect(later.status == 409 && later.problemSlug == "nothing-to-assign", "\(later.text)")
            #expect(later.string("detail")?.contains("not imported yet") == true, "\(later.text)")
            let expired = try await client.claim("u", offer: "Expired")
            #expect(expired.status == 409 && expired.problemSlug == "nothing-to-assign", "\(expired.text)")
            #expect(expired.string("detail")?.contains("expired before 2027-02-01") == true, "\(expired.text)")
            let noSandbox = try await client.claim("u", environment: "sandbox")
            #expect(noSandbox.status == 409 && noSandbox.problemSlug == "nothing-to-assign", "\(noSandbox.text)")
            // None of these handed out anything: the next claim still gets the first code.
            #expect(try Self.claimed(try await client.claim("u"))["code"] == .string("HALF0"))
        }
    }

    @Test("the body is checked by the schema: recipient by RecipientId's rules, bounded names, the environment")
    func invalidBodies() async throws {
        try await Self.withService(.sqlite) { client, _ in
            func expectInvalid(_ json: String, field: String, sourceLocation: SourceLocation = #_sourceLocation)
                async throws
            {
                let response = try await client.send(
                    .post, F.claimPath, json: json, key: ServiceFixtures.admin.secret, sourceLocation: sourceLocation)
                #expect(response.status == 422, "\(response.text)", sourceLocation: sourceLocation)
                #expect(response.problemSlug == "invalid-field", sourceLocation: sourceLocation)
                #expect(response.string("field") == field, "\(response.text)", sourceLocation: sourceLocation)
            }
            try await expectInvalid("{}", field: "campaign")
            try await expectInvalid(#"{"campaign":"spring-2027","offer":"Half"}"#, field: "recipient")
            try await expectInvalid(F.claim(""), field: "recipient")
            try await expectInvalid(F.claim("line\nbreak"), field: "recipient")
            try await expectInvalid(F.claim("nul\u{0}"), field: "recipient")
            // 200 characters but 400 UTF-8 bytes: within the schema's length, over RecipientId's bytes.
            let long = try await client.send(
                .post, F.claimPath, json: F.claim(String(repeating: "é", count: 200)),
                key: ServiceFixtures.admin.secret)
            #expect(long.status == 422 && long.string("field") == "recipient", "\(long.text)")
            #expect(long.string("detail")?.contains("256 UTF-8 bytes") == true, "\(long.text)")
            #expect(long.string("detail")?.contains("é") == false, "the recipient is not echoed")
            try await expectInvalid(F.claim(String(repeating: "x", count: 257)), field: "recipient")
            try await expectInvalid(F.claim("u", environment: "staging"), field: "environment")
            try await expectInvalid(F.claim("u", campaign: String(repeating: "c", count: 65)), field: "campaign")
            try await expectInvalid(F.claim("u", offer: ""), field: "offer")
            try await expectInvalid(F.claim("u", offer: String(repeating: "o", count: 257)), field: "offer")
            try await expectInvalid(
                #"{"campaign":"spring-2027","offer":"Half","recipient":"u","extra":1}"#, field: "extra")
            // 256 bytes of text with a tab-free, printable recipient are fine, and so is U+2063.
            #expect(try Self.claimed(try await client.claim(String(repeating: "r", count: 256)))["code"] != nil)
            #expect(try Self.claimed(try await client.claim("invisible\u{2063}separator"))["code"] != nil)
        }
    }

    @Test("scope codes: a key without it gets 403, a codes-only key may claim, no key is 401")
    func scope() async throws {
        try await Self.withService(.sqlite) { client, _ in
            let forbidden = try await client.claim("u", key: F.campaignsOnly.secret)
            #expect(forbidden.status == 403 && forbidden.problemSlug == "forbidden", "\(forbidden.text)")
            #expect(forbidden.string("detail")?.contains("'codes'") == true)
            let signing = try await client.claim("u", key: ServiceFixtures.promotionalOnly.secret)
            #expect(signing.status == 403, "\(signing.text)")
            let anonymous = try await client.claim("u", key: nil)
            #expect(anonymous.status == 401 && anonymous.problemSlug == "unauthorized")
            #expect(try Self.claimed(try await client.claim("u", key: F.codesOnly.secret))["code"] == .string("HALF0"))
        }
    }

    @Test(
        "concurrent claims for distinct recipients each get a different code; the rest get 409",
        arguments: LedgerBackend.allCases)
    func concurrentClaims(backend: LedgerBackend) async throws {
        try await Self.withService(backend, halfCodes: 30) { client, ledger in
            let responses = try await withThrowingTaskGroup(of: ServiceResponse.self) { group in
                for index in 0..<40 { group.addTask { try await client.claim("racer-\(index)") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let codes = responses.filter { $0.status == 200 }.compactMap { $0.string("code") }
            #expect(codes.count == 30 && Set(codes).count == 30, "\(responses.map(\.status))")
            #expect(responses.filter { $0.problemSlug == "no-code-left" }.count == 10)
            var recorded: [String: String] = [:]
            try await ledger.forEachAssignment(campaign: F.campaignName, offer: "Half") {
                recorded[$0.recipient] = $0.code.code
            }
            #expect(Set(recorded.values) == Set(codes) && recorded.count == 30)
        }
    }

    @Test(
        "a code changed in the ledger (row and index alike) is never handed out: 503, and status is 503 too",
        arguments: LedgerBackend.allCases)
    func aChangedCodeIsRefused(backend: LedgerBackend) async throws {
        try await Self.withService(backend) { client, ledger in
            // One byte of the next code, as a hostile run changed it: an UPDATE changes the row and
            // the unique index alike, so SQLite's integrity_check still answers ok.
            try await ledger.store.executeUnchecked("UPDATE codes SET code_key = 'HALX0' WHERE code_key = 'HALF0'")
            for recipient in ["user-1", "user-2"] {
                let refused = try await client.claim(recipient)
                #expect(refused.status == 503 && refused.problemSlug == "ledger-unavailable", "\(refused.text)")
                #expect(!refused.text.contains("HALX0"), "\(refused.text)")
            }
            let status = try await client.send(.get, F.statusPath(), key: F.codesOnly.secret)
            #expect(status.status == 503 && status.problemSlug == "ledger-unavailable", "\(status.text)")
            // Nothing was handed out; other offers still hand out theirs.
            #expect(try await F.heldCodes(ledger, ["user-1", "user-2"]) == [nil, nil])
            #expect(try Self.claimed(try await client.claim("user-1", offer: "Gems"))["code"] == .string("GEMSX"))
        }
    }

    @Test("without a ledger the service has no claim route: 404 not-found, and the configuration cannot name one alone")
    func absentWithoutLedger() async throws {
        let app = ServiceFixtures.application(try F.service(ledger: nil))
        try await app.test(.router) { client in
            let response = try await client.claim("u")
            #expect(response.status == 404 && response.problemSlug == "not-found", "\(response.text)")
        }
        #expect(throws: ConfigurationError.ledgerNotOpened(location: "/tmp/ledger.sqlite")) {
            try F.service(ledger: nil) { $0.ledger = .sqlite(path: "/tmp/ledger.sqlite") }
        }
    }
}
