import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// One vocabulary (docs/signing.md, "Names"): the operation and field names every output uses, and the
/// deprecated spellings still accepted as input with one note on stderr.
@Suite("names: current spellings printed, deprecated ones accepted with a note")
struct NamesTests {
    static let legacy = [
        "--product-id", Fixed.productId, "--offer-identifier", Fixed.offerId, "--nonce", Fixed.nonceUpper,
        "--timestamp", String(Fixed.timestamp), "--format", "json",
    ]

    /// The output with each signature cut off (ECDSA signatures differ run to run): what was signed.
    static func signed(_ result: CLIResult) -> JSON? {
        if var object = result.json?.object {
            object["signature"] = nil
            if let jws = object["jws"]?.string, let end = jws.lastIndex(of: ".") {
                object["jws"] = .string(String(jws[..<end]))
            }
            return .object(object)
        }
        guard let end = result.output.lastIndex(of: ".") else { return nil }
        return .string(String(result.output[..<end]))
    }

    static func notes(_ result: CLIResult) -> [Substring] {
        result.stderr.split(separator: "\n").filter { $0.hasPrefix("offerkit: note: ") }
    }

    @Test("sign legacy-promotional-offer prints offerIdentifier; the old name and flag still work, with notes")
    func legacyPromotionalOfferNames() async throws {
        let current = try await CLI.run(["sign", "legacy-promotional-offer"] + Self.legacy + DemoKey.flags)
        Expect.success(current)
        let json = try #require(current.json, "\(current)")
        #expect(json["offerIdentifier"]?.string == Fixed.offerId, "\(current)")
        #expect(json["offerId"] == nil, "\(current)")
        #expect(Self.notes(current).isEmpty, "\(current)")

        var oldArguments = ["sign", "promotional-offer-v1"] + Self.legacy + DemoKey.flags
        oldArguments[oldArguments.firstIndex(of: "--offer-identifier")!] = "--offer-id"
        let old = try await CLI.run(oldArguments)
        Expect.success(old)
        #expect(Self.signed(old) == Self.signed(current), "the same signed values under either name\n\(old)")
        let notes = Self.notes(old)
        #expect(notes.count == 2, "\(old)")
        #expect(notes.contains { $0.contains("'promotional-offer-v1'") && $0.contains("'legacy-promotional-offer'") })
        #expect(notes.contains { $0.contains("--offer-id") && $0.contains("--offer-identifier") })
    }

    @Test("V2 --format json says issuedAt; --iat is still accepted with a note; both at once is a usage error")
    func issuedAtNames() async throws {
        let base = [
            "sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o", "--nonce", Fixed.nonce,
            "--format", "json",
        ]
        let current = try await CLI.run(base + ["--issued-at", String(Fixed.iat)] + DemoKey.flags)
        Expect.success(current)
        #expect(current.json?["issuedAt"]?.int == Fixed.iat, "\(current)")
        #expect(current.json?["iat"] == nil, "\(current)")
        #expect(Self.notes(current).isEmpty, "\(current)")

        let old = try await CLI.run(base + ["--iat", String(Fixed.iat)] + DemoKey.flags)
        #expect(Self.signed(old) == Self.signed(current), "\(old)")
        #expect(
            Self.notes(old).map(String.init) == ["offerkit: note: --iat is deprecated; the flag is now --issued-at"])

        let both = try await CLI.run(base + ["--issued-at", "1700000000", "--iat", "1700000000"] + DemoKey.flags)
        Expect.failure(both, status: 2, mentioning: ["--issued-at", "--iat"])
        let bothOffers = try await CLI.run(base + ["--offer-id", "o"] + DemoKey.flags)
        Expect.failure(bothOffers, status: 2, mentioning: ["--offer-identifier", "--offer-id"])
        let noOffer = try await CLI.run(["sign", "promotional-offer", "--product-id", "p"] + DemoKey.flags)
        Expect.failure(noOffer, status: 2, mentioning: ["--offer-identifier"])

        let outOfRange = try await CLI.run(base + ["--issued-at", "12"] + DemoKey.flags)
        Expect.failure(outOfRange, status: 4, mentioning: ["--issued-at", "found 12"])
    }

    @Test("sign introductory-offer-eligibility, and the old name intro-eligibility with a note")
    func introductoryOfferEligibilityNames() async throws {
        let arguments = [
            "--product-id", "p", "--allow-intro", "true", "--transaction-id", "1", "--nonce", Fixed.nonce,
            "--issued-at", String(Fixed.iat),
        ]
        let current = try await CLI.run(["sign", "introductory-offer-eligibility"] + arguments + DemoKey.flags)
        Expect.success(current)
        #expect(Self.notes(current).isEmpty, "\(current)")
        let old = try await CLI.run(["sign", "intro-eligibility"] + arguments + DemoKey.flags)
        #expect(Self.signed(old) == Self.signed(current), "\(old)")
        #expect(
            Self.notes(old).map(String.init) == [
                "offerkit: note: 'intro-eligibility' is deprecated; the name is now 'introductory-offer-eligibility'"
            ], "\(old)")
    }

    @Test("batch types are the operation names; old types and fields work, with one note each per run")
    func batchNames() async throws {
        let lines = [
            #"{"type":"intro-eligibility","productId":"p","allowIntroductoryOffer":true,"transactionId":"1","iat":1700000000}"#,
            #"{"type":"intro-eligibility","productId":"p","allowIntroductoryOffer":true,"transactionId":"1","iat":1700000001}"#,
            #"{"type":"promotional-offer-v1","productId":"p","offerId":"o","timestamp":\#(Fixed.timestamp)}"#,
            #"{"type":"introductory-offer-eligibility","productId":"p","allowIntroductoryOffer":true,"transactionId":"1","issuedAt":1700000002}"#,
            #"{"type":"legacy-promotional-offer","productId":"p","offerIdentifier":"o","timestamp":\#(Fixed.timestamp)}"#,
            #"{"type":"promotional-offer","productId":"p","offerIdentifier":"o","issuedAt":1700000003,"iat":1700000003}"#,
            #"{"type":"legacy-promotional-offer","productId":"p","offerIdentifier":"o","timestamp":1700000000}"#,
        ]
        let result = try await CLI.run(
            ["batch"] + DemoKey.flags, stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 4, "two lines fail\n\(result)")
        let out = result.jsonLines
        try #require(out.count == lines.count, "\(result)")
        #expect(
            out.map { $0?["type"]?.string } == [
                "introductory-offer-eligibility", "introductory-offer-eligibility", "legacy-promotional-offer",
                "introductory-offer-eligibility", "legacy-promotional-offer", "promotional-offer",
                "legacy-promotional-offer",
            ], "\(result)")
        #expect(out[0]?["issuedAt"]?.int == 1_700_000_000 && out[0]?["iat"] == nil, "\(result)")
        #expect(out[3]?["issuedAt"]?.int == 1_700_000_002, "\(result)")
        #expect(out[2]?["offerIdentifier"]?.string == "o" && out[2]?["offerId"] == nil, "\(result)")
        #expect(out[4]?["offerIdentifier"]?.string == "o", "\(result)")
        #expect(out[5]?["error"]?["field"]?.string == "iat", "\(result)")
        #expect(out[5]?["error"]?["message"]?.string?.contains("give only issuedAt") == true, "\(result)")
        // A legacy timestamp in seconds is refused, naming milliseconds.
        #expect(out[6]?["error"]?["field"]?.string == "timestamp", "\(result)")
        #expect(out[6]?["error"]?["message"]?.string?.contains("looks like seconds") == true, "\(result)")

        let notes = Self.notes(result).map(String.init)
        #expect(
            notes.sorted() == [
                "offerkit: note: 'intro-eligibility' is deprecated; the name is now 'introductory-offer-eligibility'",
                "offerkit: note: 'promotional-offer-v1' is deprecated; the name is now 'legacy-promotional-offer'",
                "offerkit: note: the field 'iat' is deprecated; the name is now 'issuedAt'",
                "offerkit: note: the field 'offerId' is deprecated; the name is now 'offerIdentifier'",
            ], "one note per deprecated spelling per run\n\(result)")
        // The help lists the current names only.
        let help = try await CLI.run(["batch", "--help"])
        for name in SigningOperation.allCases.map(\.rawValue) {
            #expect(help.stdout.filter { !$0.isWhitespace }.contains(name), "\(name)\n\(help)")
        }
    }

    @Test("verify --kind takes advanced-commerce (and advanced-commerce-api with a note) and prints advanced-commerce")
    func verifyKindNames() async throws {
        let jws = try DemoKey.signer().sign(
            AdvancedCommerce.InAppRequest.decode(json: Array(Fixed.oneTimeChargeJSON.utf8))
        ).serialization
        let current = try await CLI.run(
            ["verify", "--jws", jws, "--kind", "advanced-commerce", "--format", "json"] + DemoKey.flags)
        Expect.success(current)
        #expect(current.json?["kind"]?.string == "advanced-commerce", "\(current)")
        #expect(
            current.json?["claims"]?["aud"]?.string == "advanced-commerce-api", "the aud claim is Apple's\n\(current)")
        #expect(Self.notes(current).isEmpty, "\(current)")
        let old = try await CLI.run(
            ["verify", "--jws", jws, "--kind", "advanced-commerce-api", "--format", "json"] + DemoKey.flags)
        #expect(Self.signed(old) == Self.signed(current), "\(old)")
        #expect(Self.notes(old).count == 1, "\(old)")
        let text = try await CLI.run(["verify", "--jws", jws] + DemoKey.flags)
        #expect(text.stdout.hasPrefix("verified: advanced-commerce JWS"), "\(text)")
        let wrong = try await CLI.run(["verify", "--jws", jws, "--kind", "legacy-promotional-offer"] + DemoKey.flags)
        Expect.failure(wrong, status: 2, mentioning: ["--kind"])
    }

    @Test("offerkit --version prints the library's version")
    func version() async throws {
        let result = try await CLI.run(["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.output == OfferKitVersion.current, "\(result)")
    }
}
