import CLIUnderTest
import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `sign promotional-offer --ledger`, `sign legacy-promotional-offer --ledger` and `batch --ledger`
/// (issue 32 item 4): with a ledger that knows the product's promotional offers (created by `codes
/// apply`, here against the App Store Connect stand-in), an offer identifier that is not one of
/// them is refused, naming them; a product it knows none of is signed as before.
@Suite("offerkit sign and batch --ledger: only offers codes apply created", .serialized)
struct SignAgainstLedgerTests {
    static let product = "com.example.offerkit.monthly"

    /// A ledger in which `codes apply` created examples/subscription-offers.json's offers.
    static func appliedLedger() async throws -> ApplyProof {
        let proof = try await ApplyProof(campaignText: ApplyProof.subscriptionOffersCampaign(name: "signing"))
        try await #require(try proof.codes("generate").status == 0)
        let applied = try await proof.apply()
        try #require(applied.status == 0, "\(applied)")
        return proof
    }

    @Test(
        "sign promotional-offer and legacy-promotional-offer: a known offer is signed, another is refused (exit 4) naming the product's offers",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func signCommandsCheckTheLedger() async throws {
        let proof = try await Self.appliedLedger()
        defer { proof.stop() }
        for command in ["promotional-offer", "legacy-promotional-offer"] {
            func sign(_ offer: String, product: String = Self.product) async throws -> CLIResult {
                try await CLI.run(
                    [
                        "sign", command, "--product-id", product, "--offer-identifier", offer, "--ledger",
                        proof.ledgerPath,
                    ])
            }
            let known = try await sign("comeback_half_3m")
            #expect(known.status == 0, "\(known)")
            let unknown = try await sign("comeback_half_3n")
            #expect(unknown.status == 4, "\(unknown)")
            #expect(
                unknown.stderr.contains(
                    #"--offer-identifier "comeback_half_3n" is not one of the promotional offers of product "com.example.offerkit.monthly""#
                )
                    && unknown.stderr.contains(": comeback_half_3m."), "\(unknown)")
            #expect(unknown.stdout.isEmpty, "nothing is signed: \(unknown)")
            let otherProduct = try await sign("anything", product: "com.example.offerkit.yearly")
            #expect(otherProduct.status == 0, "\(otherProduct)")
        }
        let missing = try await CLI.run(
            [
                "sign", "promotional-offer", "--product-id", Self.product, "--offer-identifier", "x", "--ledger",
                proof.files.file("nowhere.sqlite"),
            ])
        #expect(missing.status == 5 && missing.stderr.contains("no ledger file there"), "\(missing)")
    }

    @Test(
        "batch --ledger: a promotional offer the ledger does not know for its product fails its line at offerIdentifier; the rest are signed",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func batchChecksTheLedger() async throws {
        let proof = try await Self.appliedLedger()
        defer { proof.stop() }
        let lines =
            [
                #"{"type":"promotional-offer","productId":"\#(Self.product)","offerIdentifier":"comeback_half_3m"}"#,
                #"{"type":"legacy-promotional-offer","productId":"\#(Self.product)","offerIdentifier":"nope"}"#,
                #"{"type":"promotional-offer","productId":"com.example.offerkit.yearly","offerIdentifier":"any"}"#,
            ].joined(separator: "\n") + "\n"
        let result = try await CLI.run(
            ["batch", "--ledger", proof.ledgerPath], stdin: Data(lines.utf8))
        #expect(result.status == 4, "\(result)")
        let outputs = result.stdout.split(separator: "\n").map { JSON.parse(String($0)) }
        #expect(outputs.count == 3, "\(result)")
        #expect(outputs[0]?["jws"] != nil && outputs[2]?["jws"] != nil, "\(result)")
        #expect(outputs[1]?["error"]?["field"]?.string == "offerIdentifier", "\(result)")
    }

    @Test(
        "the sign-only build refuses --ledger with the reason (exit 2)",
        .enabled(if: CLIUnderTest.signingOnlyExecutable != nil, "the links to the test binary need /proc/self/exe"))
    func signOnlyBuildRefusesTheLedger() async throws {
        let executable = try #require(CLIUnderTest.signingOnlyExecutable)
        let result = try await CLI.run(
            [
                "sign", "promotional-offer", "--product-id", Self.product, "--offer-identifier", "x", "--ledger",
                "ledger.sqlite",
            ], executable: executable)
        #expect(result.status == 2 && result.stderr.contains("--ledger needs the full offerkit"), "\(result)")
    }
}
