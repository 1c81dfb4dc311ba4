import AppleTestChain
import Foundation
import InteropSupport
import OfferAppleVerification
import Testing
import X509

/// What Apple signs is read strictly: a `crit` or `b64` header member, `=` padding or set trailing
/// bits, and a chain that breaks RFC 5280's key usage rules are refused; a high-S signature, which
/// the App Store itself produces, is accepted. Every case is made on the Swift test chain
/// (``AppleTestChain``) and also goes through Apple's own `SignedDataVerifier`
/// (`Tests/Interop/verify_apple_signed.py`): both answer the same, except where a case says why
/// OfferKit is the stricter.
@Suite("Apple signed data: read strictly, and Apple's own verifier agrees or is laxer")
struct StrictReadingTests {
    /// One JWS, how it must be answered, and what the refusal must say.
    struct Case: Encodable, CustomTestStringConvertible {
        var name: String
        var kind: String
        var jws: String
        var environment = "Sandbox"
        var bundleId: String? = StrictReadingTests.bundleId
        var appAppleId: Int64?
        /// The `roots` entry to trust.
        var root = "test"
        /// "accept", or the `AppleVerificationError` case.
        var expect: String
        /// Words the refusal's message holds.
        var mentioning: [String] = []
        var appleDiffers: String?

        var testDescription: String { name }
    }

    struct Document: Encodable {
        var roots: [String: String]
        var cases: [Case]
    }

    static let chain = AppleTestChain.shared
    static let bundleId = "com.example.offerkit"

    /// What OfferKit must answer for each variant the strict reading adds, and what it names.
    static let strict: [AppleTestChain.Variant: (expect: String, mentioning: [String])] = [
        .critUnknown: ("malformed", ["crit", "\"exp\"", "RFC 7515"]),
        .critB64False: ("malformed", ["crit", "\"b64\""]),
        .b64True: ("malformed", ["b64", "RFC 7797"]),
        .paddedSignature: ("malformed", ["signature", "padded"]),
        .signatureTrailingBits: ("malformed", ["signature", "canonical base64url"]),
        .intermediateWithoutKeyCertSign: ("untrustedChain", ["intermediate", "keyCertSign"]),
        .intermediateNonCriticalWithoutKeyCertSign: ("untrustedChain", ["intermediate", "keyCertSign"]),
        .intermediateWithoutKeyUsage: ("untrustedChain", ["intermediate", "no keyUsage"]),
        .leafWithoutDigitalSignature: ("untrustedChain", ["leaf", "digitalSignature"]),
        .leafWithKeyCertSign: ("untrustedChain", ["leaf", "keyCertSign"]),
    ]

    /// A transaction as the App Store signs it, for the tests' bundle ID.
    static let transaction = Array(
        """
        {"transactionId":"2000000912345678","originalTransactionId":"2000000900000001",\
        "bundleId":"\(bundleId)","productId":"com.example.offerkit.monthly",\
        "purchaseDate":1748779140000,"originalPurchaseDate":1735689600000,"quantity":1,"type":"Consumable",\
        "inAppOwnershipType":"PURCHASED","signedDate":1748779200000,"environment":"Sandbox",\
        "transactionReason":"PURCHASE","storefront":"USA","storefrontId":"143441","price":4990,"currency":"USD"}
        """.utf8)

    static let cases: (roots: [String: String], cases: [Case]) = {
        do {
            return try makeCases()
        } catch {
            fatalError("the strict-reading cases could not be made: \(error)")
        }
    }()

    static func makeCases() throws -> (roots: [String: String], cases: [Case]) {
        var cases: [Case] = []
        let payloads = [
            ("transaction", transaction),
            ("realtime-request", RealtimeRequestPayload(signedDate: 1_748_779_200_000).json),
        ]
        for (kind, payload) in payloads {
            for variant in [AppleTestChain.Variant.good] + strict.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
                let rule = strict[variant] ?? ("accept", [])
                cases.append(
                    Case(
                        name: "\(kind) \(variant.rawValue)", kind: kind, jws: try chain.sign(payload, variant: variant),
                        expect: rule.expect, mentioning: rule.mentioning, appleDiffers: variant.appleDiffers))
            }
            // The other spelling of a good signature: the App Store signs in both.
            let highS = AppleTestChain.highS(try chain.sign(payload))
            cases.append(Case(name: "\(kind) high-S", kind: kind, jws: highS, expect: "accept"))
        }
        // The trusted root itself breaks the rule: Apple's verifier (OpenSSL) refuses it too.
        var roots = ["test": chain.rootPEM]
        let brokenRoots: [(name: String, usage: KeyUsage?, missing: String)] = [
            ("root-without-key-cert-sign", KeyUsage(cRLSign: true), "keyCertSign"),
            ("root-without-key-usage", nil, "no keyUsage"),
        ]
        for (name, usage, missing) in brokenRoots {
            let made = try AppleTestChain(rootKeyUsage: usage)
            roots[name] = made.rootPEM
            cases.append(
                Case(
                    name: name, kind: "transaction", jws: try made.sign(transaction), root: name,
                    expect: "untrustedChain", mentioning: ["root", missing]))
        }
        return (roots, cases)
    }

    static func root(_ name: String) throws -> Certificate {
        try #require(AppleRootCertificates.certificates(pem: cases.roots[name] ?? "").first)
    }

    /// "accept", or the refusal's case name and message.
    static func outcome(of testCase: Case) async throws -> (name: String, message: String) {
        let verifier = try AppleSignedDataVerifier(
            rootCertificates: [root(testCase.root)], bundleId: testCase.bundleId, environment: .sandbox)
        let kind = try #require(AppleSignedDataKind(rawValue: testCase.kind))
        do {
            _ = try await verifier.verify(testCase.jws, as: kind)
            return ("accept", "")
        } catch {
            return (AppleSignedCases.caseName(error), error.localizedDescription)
        }
    }

    @Test("each case is accepted, or refused with the named reason", arguments: cases.cases)
    func eachCase(_ testCase: Case) async throws {
        let (name, message) = try await Self.outcome(of: testCase)
        #expect(name == testCase.expect, "\(message)")
        for word in testCase.mentioning {
            #expect(message.contains(word), "\(testCase.name): \(message)")
        }
    }

    @Test("the high-S case is high-S, and the good one's twin is the same payload signed the other way")
    func highSIsHighS() throws {
        let good = try Self.chain.sign(RealtimeRequestPayload().json)
        let twin = AppleTestChain.highS(good)
        let signature = try #require(twin.split(separator: ".").last)
        let bytes = try #require(Data(base64Encoded: Self.standardBase64(String(signature))))
        #expect(AppleTestChain.isHighS(Array(bytes.suffix(32))))
        let twinParts: [Substring] = Array(twin.split(separator: ".").dropLast())
        #expect(twinParts == Array(good.split(separator: ".").dropLast()))
        #expect(AppleTestChain.highS(twin) == twin)
    }

    static func standardBase64(_ text: String) -> String {
        let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return standard + String(repeating: "=", count: (4 - standard.count % 4) % 4)
    }

    @Test(
        "Apple's SignedDataVerifier answers every case the same, or accepts where OfferKit documents why it refuses",
        .enabled(AppleLibraryCrossCheckTests.reason) {
            await AppleLibraryCrossCheckTests.available || InteropEnvironment.isCI
        })
    func appleAgrees() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-strict-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cases.json")
        try JSONEncoder().encode(Document(roots: Self.cases.roots, cases: Self.cases.cases)).write(to: file)
        let script = AppleSignedCases.packageRoot.appendingPathComponent("Tests/Interop/verify_apple_signed.py").path
        let result = try await ExternalProcess.run(InteropEnvironment.python, [script, file.path])
        try #require(result.status == 0, "Apple's library did not run:\n\(result.stderr)")
        let answers = try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(AppleLibraryCrossCheckTests.AppleAnswer.self, from: Data($0.utf8))
        }
        #expect(answers.map(\.name) == Self.cases.cases.map(\.name))
        for (testCase, answer) in zip(Self.cases.cases, answers) {
            let accepted = try await Self.outcome(of: testCase).name == "accept"
            let apple = answer.accepted ? "accepts" : "refuses (\(answer.status))"
            if testCase.appleDiffers != nil {
                // OfferKit is the stricter: it refuses what Apple's verifier accepts, never the reverse.
                #expect(!accepted && answer.accepted, "\(testCase.name): documented as differing, Apple's \(apple)")
            } else {
                #expect(
                    accepted == answer.accepted,
                    "\(testCase.name): OfferKit \(accepted ? "accepts" : "refuses"), Apple's library \(apple)")
            }
        }
        #expect(answers.contains { $0.accepted } && answers.contains { !$0.accepted })
    }
}
