import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit batch`: JSON Lines in, one result line per input line, in input order.
@Suite("offerkit batch")
struct BatchCommandTests {
    static let requestObject = Fixed.oneTimeChargeJSON

    /// Input line `index` (1-based) of the mixed batch, and the type it has.
    static func mixedLine(_ index: Int) -> (line: String, type: String) {
        let id = index % 7 == 0 ? String(index) : #""req-\#(index)""#  // integer ids too
        switch index % 5 {
        case 0:
            return (
                #"{"type":"promotional-offer","id":\#(id),"productId":"product.\#(index)","offerIdentifier":"OFFER\#(index)","transactionId":"\#(2_000_000_000 + index)"}"#,
                "promotional-offer"
            )
        case 1:
            return (
                #"{"type":"promotional-offer-v1","id":\#(id),"productId":"product.\#(index)","offerIdentifier":"OFFER\#(index)","appAccountToken":"\#(Fixed.appAccountTokenUpper)","nonce":"\#(Fixed.nonceUpper)","timestamp":\#(Fixed.timestamp + Int64(index))}"#,
                "legacy-promotional-offer"
            )
        case 2:
            return (
                #"{"type":"intro-eligibility","id":\#(id),"productId":"product.\#(index)","allowIntroductoryOffer":\#(index % 2 == 0),"transactionId":"\#(index)","nonce":"\#(Fixed.nonce)","iat":\#(Fixed.iat + Int64(index))}"#,
                "introductory-offer-eligibility"
            )
        case 3:
            return (#"{"type":"advanced-commerce","id":\#(id),"request":\#(requestObject)}"#, "advanced-commerce")
        default:
            return (#"{"type":"server-api-token","id":\#(id),"lifetime":\#(60 + index)}"#, "server-api-token")
        }
    }

    static func expectedId(_ index: Int) -> JSON {
        index % 7 == 0 ? .int(Int64(index)) : .string("req-\(index)")
    }

    @Test func thousandMixedLinesKeepInputOrderAndAllVerify() async throws {
        let count = 1000
        let input = (1...count).map { Self.mixedLine($0).line }.joined(separator: "\n") + "\n"
        let result = try await CLI.run(["batch"] + DemoKey.flags, stdin: Data(input.utf8))
        #expect(result.status == 0, "every line succeeded\n\(result.stderr)")
        let lines = result.jsonLines
        try #require(lines.count == count, "one output line per input line, got \(lines.count)")
        let verifier = JWSVerifier(key: DemoKey.key)
        var failures = 0
        // Records at most ten issues, so a systematic fault does not print a thousand.
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            guard !condition else { return }
            failures += 1
            if failures <= 10 { Issue.record(Comment(rawValue: message())) }
        }
        for (offset, item) in lines.enumerated() {
            let index = offset + 1
            guard let item else {
                check(false, "output line \(index) is not JSON")
                continue
            }
            let expectedType = Self.mixedLine(index).type
            check(item["line"]?.int == Int64(index), "line \(index) has line \(String(describing: item["line"]))")
            check(item["type"]?.string == expectedType, "line \(index) is not \(expectedType): \(item)")
            check(item["id"] == Self.expectedId(index), "line \(index) does not echo its id: \(item)")
            check(item["error"] == nil, "line \(index) failed: \(item)")
            switch index % 5 {
            case 0, 2, 3:
                let kind: JWSKind =
                    switch index % 5 {
                    case 0: .promotionalOffer
                    case 2: .introductoryOfferEligibility
                    default: .advancedCommerce
                    }
                do {
                    let verified = try verifier.verify(item["jws"]?.string ?? "", as: kind)
                    if kind != .advancedCommerce {
                        check(verified.claims.productId == "product.\(index)", "line \(index): productId")
                    }
                    if kind == .promotionalOffer {
                        check(verified.claims.transactionId == String(2_000_000_000 + index), "line \(index): tx")
                    }
                    if kind == .introductoryOfferEligibility {
                        check(verified.claims.iat == Fixed.iat + Int64(index), "line \(index): iat")
                        check(verified.claims.nonce == Fixed.nonce, "line \(index): nonce")
                        check(verified.claims.allowIntroductoryOffer == (index % 2 == 0), "line \(index): allow")
                    }
                    check(item["nonce"]?.string == verified.claims.nonce, "line \(index): nonce member")
                    check(item["issuedAt"]?.int == verified.claims.iat, "line \(index): issuedAt member")
                } catch {
                    check(false, "line \(index) does not verify: \(error)")
                }
            case 1:
                check(item["keyId"]?.string == DemoKey.keyId, "line \(index): keyId")
                check(item["nonce"]?.string == Fixed.nonce, "line \(index): nonce")
                check(item["timestamp"]?.int == Fixed.timestamp + Int64(index), "line \(index): timestamp")
                check(item["productId"]?.string == "product.\(index)", "line \(index): productId")
                check(item["offerIdentifier"]?.string == "OFFER\(index)", "line \(index): offerIdentifier")
                check(
                    item["appAccountToken"]?.string == Fixed.appAccountTokenUpper.lowercased(),
                    "line \(index): appAccountToken")
                let legacy = LegacyPromotionalOfferSignature(
                    keyId: DemoKey.keyId, nonce: Fixed.nonceUUID, timestamp: Fixed.timestamp + Int64(index),
                    signature: item["signature"]?.string ?? "", productId: "product.\(index)",
                    offerIdentifier: "OFFER\(index)", appAccountToken: Fixed.appAccountTokenUpper.lowercased())
                do {
                    try verifier.verify(legacy, bundleId: DemoKey.bundleId)
                } catch {
                    check(false, "line \(index): legacy signature does not verify: \(error)")
                }
            default:
                do {
                    let verified = try verifier.verify(item["token"]?.string ?? "", as: .serverAPIToken)
                    check(verified.claims.exp == verified.claims.iat + Int64(60 + index), "line \(index): lifetime")
                } catch {
                    check(false, "line \(index): token does not verify: \(error)")
                }
            }
        }
        #expect(failures == 0)
    }

    @Test func badLinesGetErrorsAndTheBatchGoesOn() async throws {
        let input = [
            #"{"type":"promotional-offer","productId":"p","offerIdentifier":"o","id":"first"}"#,
            #"{not json"#,
            "",
            #"{"type":"no-such-type","id":"unknown"}"#,
            #"{"type":"promotional-offer","offerIdentifier":"o","id":"missing"}"#,
            #"{"type":"intro-eligibility","productId":"p","allowIntroductoryOffer":"yes","transactionId":"1"}"#,
            #"{"type":"advanced-commerce","request":\#(Fixed.tooLongSKUJSON)}"#,
            #"{"type":"server-api-token","lifetime":3601}"#,
            "   ",
            #"{"type":"promotional-offer-v1","productId":"p","offerIdentifier":"o","id":9}"#,
        ].joined(separator: "\n")
        let result = try await CLI.run(["batch"] + DemoKey.flags, stdin: Data(input.utf8))
        #expect(result.status == 4, "a failed line makes the exit status 4\n\(result)")
        let lines = result.jsonLines.compactMap { $0 }
        try #require(lines.count == 8, "blank lines are skipped, every other line answered\n\(result.stdout)")
        #expect(lines.map { $0["line"]?.int } == [1, 2, 4, 5, 6, 7, 8, 10], "blank lines still count")

        #expect(lines[0]["jws"]?.string != nil && lines[0]["id"]?.string == "first")
        #expect(lines[0]["type"]?.string == "promotional-offer")

        #expect(lines[1]["error"]?["code"]?.string == "invalid-json")
        let message = lines[1]["error"]?["message"]?.string ?? ""
        #expect(message.isEmpty == false)

        #expect(lines[2]["error"]?["code"]?.string == "unknown-type")
        #expect(lines[2]["id"]?.string == "unknown")

        #expect(lines[3]["error"]?["code"]?.string == "invalid-input")
        #expect(lines[3]["error"]?["field"]?.string == "productId")
        #expect(lines[3]["id"]?.string == "missing")

        #expect(lines[4]["error"]?["code"]?.string == "invalid-input")
        #expect(lines[4]["error"]?["field"]?.string == "allowIntroductoryOffer")

        #expect(lines[5]["error"]?["code"]?.string == "invalid-input")
        let skuField = lines[5]["error"]?["field"]?.string ?? ""
        #expect(skuField.hasSuffix("items[0].SKU"), "\(lines[5])")

        #expect(lines[6]["error"]?["code"]?.string == "invalid-input")
        #expect(lines[6]["error"]?["field"]?.string == "lifetime")

        #expect(lines[7]["signature"]?.string != nil && lines[7]["id"]?.int == 9)
        #expect(lines[7]["type"]?.string == "legacy-promotional-offer")
        for line in lines { #expect(line["error"] == nil || line["error"]?["message"]?.string != nil) }
    }

    @Test func inputAndOutputFiles() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let input = (1...20).map { Self.mixedLine($0).line }.joined(separator: "\n")
        let inputPath = try folder.write(input, to: "in.jsonl")
        let outputPath = folder.file("out.jsonl")
        let result = try await CLI.run(["batch", "--input", inputPath, "--output", outputPath] + DemoKey.flags)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("\"line\""), "results go to --output, not stdout\n\(result)")
        let written = try String(contentsOfFile: outputPath, encoding: .utf8)
        OutputLog.shared.record(CLIResult(arguments: ["(batch --output file)"], status: 0, stdout: written, stderr: ""))
        let lines = written.split(separator: "\n").map { JSON.parse($0) }
        let lineNumbers: [Int64?] = lines.map { (line: JSON?) -> Int64? in line?["line"]?.int }
        #expect(lineNumbers == (1...20).map { (number: Int) -> Int64? in Int64(number) })

        let missing = try await CLI.run(["batch", "--input", folder.file("no-such.jsonl")] + DemoKey.flags)
        Expect.failure(missing, status: 5)

        let unwritable = try await CLI.run(
            ["batch", "--input", inputPath, "--output", "\(inputPath)/out.jsonl"] + DemoKey.flags)
        Expect.failure(unwritable, status: 5)
    }

    @Test(
        "batch JWS verify with PyJWT and cryptography",
        .enabled(Independent.pythonReason) { await Independent.pythonAvailable || Independent.isCI })
    func batchVerifiesWithPython() async throws {
        let input = (1...10).map { Self.mixedLine($0).line }.joined(separator: "\n")
        let result = try await CLI.run(["batch"] + DemoKey.flags, stdin: Data(input.utf8))
        #expect(result.status == 0, "\(result)")
        var tokens: [(token: String, audience: String)] = []
        for item in result.jsonLines.compactMap({ $0 }) {
            switch item["type"]?.string {
            case "promotional-offer": tokens.append((item["jws"]?.string ?? "", "promotional-offer"))
            case "introductory-offer-eligibility":
                tokens.append((item["jws"]?.string ?? "", "introductory-offer-eligibility"))
            case "advanced-commerce": tokens.append((item["jws"]?.string ?? "", "advanced-commerce-api"))
            case "server-api-token": tokens.append((item["token"]?.string ?? "", "appstoreconnect-v1"))
            default: break
            }
        }
        #expect(tokens.count == 8)
        let verified = try await Independent.verifyWithPython(tokens)
        #expect(verified.count == tokens.count)
    }

    @Test("connect-api-token lines: a team token with the batch's issuer ID, an individual one, scope and lifetime")
    func connectAPITokenLines() async throws {
        let lines = [
            #"{"type":"connect-api-token","id":"team","lifetime":600,"scope":["GET /v1/apps"]}"#,
            #"{"type":"connect-api-token","id":"individual","individual":true}"#,
            #"{"type":"connect-api-token","lifetime":1201}"#,
            #"{"type":"connect-api-token","scope":"GET /v1/apps"}"#,
            #"{"type":"connect-api-token","bid":"com.example"}"#,
        ]
        let result = try await CLI.run(["batch"] + DemoKey.flags, stdin: Data(lines.joined(separator: "\n").utf8))
        #expect(result.status == 4, "\(result)")
        let out = result.jsonLines
        try #require(out.count == lines.count, "\(result)")
        let verifier = JWSVerifier(key: DemoKey.key)

        let team = try verifier.verify(out[0]?["token"]?.string ?? "", as: .connectAPIToken)
        #expect(out[0]?["type"]?.string == "connect-api-token" && out[0]?["id"]?.string == "team")
        #expect(team.claims.iss == DemoKey.issuerId)
        #expect(team.claims.exp == team.claims.iat + 600)
        #expect(out[0]?["expiresAt"]?.int == team.claims.exp)
        #expect(team.payloadJSON.contains(#""scope":["GET /v1/apps"]"#), "\(team.payloadJSON)")

        let individual = try verifier.verify(out[1]?["token"]?.string ?? "", as: .connectAPIToken)
        #expect(individual.claims.iss == nil)
        #expect(individual.payloadJSON.contains(#""sub":"user""#), "\(individual.payloadJSON)")
        #expect(individual.claims.exp == individual.claims.iat + 900, "default lifetime 900 s")

        #expect(out[2]?["error"]?["field"]?.string == "lifetime", "\(result)")
        #expect(out[2]?["error"]?["message"]?.string?.contains("1201") == true, "\(result)")
        #expect(out[3]?["error"]?["field"]?.string == "scope", "\(result)")
        #expect(out[4]?["error"]?["field"]?.string == "bid", "\(result)")
    }
}
