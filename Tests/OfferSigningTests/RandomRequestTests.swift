import Foundation
import InteropSupport
import Testing

@testable import OfferSigning

/// Random inputs for the random-request tests.
struct InputGenerator {
    var rng: SplitMix64

    /// Non-ASCII pieces: accents, CJK, RTL, combining marks, emoji (with ZWJ and flags),
    /// astral-plane symbols, and format/separator characters that are not control characters.
    static let exotic: [String] = [
        "é", "ü", "ß", "ñ", "Å", "中", "日本", "한", "ж", "ש", "ا", "€", "™", "e\u{301}", "\u{301}", "🎉", "😀",
        "👨‍👩‍👧", "🇯🇵", "𝄞", "\u{FFFD}", "\u{200B}", "\u{2028}", "\u{2062}", "\u{00A0}", "İ",
    ]
    /// Characters that JSON must escape, and other punctuation.
    static let special: [String] = [
        #"""#, #"\"#, "/", "{", "}", "[", "]", ":", ",", " ", "'", "<", ">", "&", "%", "+", "=",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func int64(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &rng) }
    mutating func bool() -> Bool { Bool.random(using: &rng) }
    mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }

    /// One printable piece (never a control character, never U+2063).
    mutating func piece() -> String {
        switch int(0...9) {
        case 0...5: String(UnicodeScalar(UInt8(int(0x21...0x7E))))
        case 6, 7: pick(Self.special)
        default: pick(Self.exotic)
        }
    }

    /// A valid identifier of 1…`maxPieces` pieces whose UTF-16 length stays within `maxUTF16`.
    mutating func text(maxPieces: Int = 24, maxUTF16: Int = .max) -> String {
        let target = int(1...maxPieces)
        var result = ""
        while result.isEmpty || result.count < target {
            let next = piece()
            if result.utf16.count + next.utf16.count > maxUTF16 {
                if result.isEmpty { continue }
                break
            }
            result += next
        }
        return result
    }

    mutating func uuid(v4: Bool = false) -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        if v4 {
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
        }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    mutating func digits() -> String { String(int64(1...9_999_999_999_999_999)) }

    /// A date from 1970 to 2100 with a random fractional second.
    mutating func date() -> Date {
        // 2000-01-01 (ClaimTime.earliestSeconds) to 2100-01-01.
        Date(timeIntervalSince1970: Double(int64(946_684_800...4_102_444_800)) + Double(int(0...999)) / 1000)
    }

    mutating func upperLetters(_ count: Int) -> String {
        String((0..<count).map { _ in Character(UnicodeScalar(UInt8(int(0x41...0x5A)))) })
    }

    // MARK: Advanced Commerce

    typealias AC = AdvancedCommerce

    mutating func sku() -> String { text(maxPieces: 40, maxUTF16: AC.skuMaximum) }
    mutating func description() -> String { text(maxPieces: 45, maxUTF16: AC.descriptionMaximum) }
    mutating func displayName() -> String { text(maxPieces: 30, maxUTF16: AC.displayNameMaximum) }
    mutating func price() -> Int64 { pick([0, 1, 990, 4990, int64(0...Int64.max)]) }
    mutating func maybe<T>(_ make: (inout InputGenerator) -> T) -> T? { bool() ? make(&self) : nil }

    mutating func requestInfo() -> AC.RequestInfo {
        AC.RequestInfo(
            requestReferenceId: uuid(), appAccountToken: maybe { $0.uuid() },
            consistencyToken: maybe { $0.text() })
    }

    mutating func offer() -> AC.Offer {
        AC.Offer(
            period: pick(AC.OfferPeriod.allCases), periodCount: int(1...12), price: price(),
            reason: pick(AC.OfferReason.allCases))
    }

    mutating func inAppRequest() -> AC.InAppRequest {
        switch int(0...3) {
        case 0:
            return .oneTimeCharge(
                AC.OneTimeChargeCreateRequest(
                    requestInfo: requestInfo(), currency: upperLetters(3), taxCode: text(),
                    item: AC.OneTimeChargeItem(
                        sku: sku(), description: description(), displayName: displayName(), price: price()),
                    storefront: maybe { $0.upperLetters(3) }))
        case 1:
            return .createSubscription(
                AC.SubscriptionCreateRequest(
                    requestInfo: requestInfo(), currency: upperLetters(3), taxCode: text(),
                    descriptors: AC.Descriptors(description: description(), displayName: displayName()),
                    items: (0..<int(1...4)).map { _ in
                        AC.SubscriptionItem(
                            sku: sku(), description: description(), displayName: displayName(), price: price(),
                            offer: maybe { $0.offer() })
                    },
                    period: pick(AC.Period.allCases), previousTransactionId: maybe { $0.digits() },
                    storefront: maybe { $0.upperLetters(3) }))
        case 2:
            return .modifySubscription(
                AC.SubscriptionModifyInAppRequest(
                    requestInfo: requestInfo(), transactionId: digits(), retainBillingCycle: bool(),
                    addItems: maybe { g in
                        (0..<g.int(1...3)).map { _ in
                            AC.AddItem(
                                sku: g.sku(), description: g.description(), displayName: g.displayName(),
                                price: g.price(), offer: g.maybe { $0.offer() }, proratedPrice: g.maybe { $0.price() })
                        }
                    },
                    changeItems: maybe { g in
                        (0..<g.int(1...3)).map { _ in
                            AC.ChangeItem(
                                sku: g.sku(), currentSKU: g.sku(), description: g.description(),
                                displayName: g.displayName(), price: g.price(),
                                effective: g.pick(AC.Effective.allCases),
                                reason: g.pick(AC.ChangeReason.allCases), offer: g.maybe { $0.offer() },
                                proratedPrice: g.maybe { $0.price() })
                        }
                    },
                    removeItems: maybe { g in (0..<g.int(1...3)).map { _ in AC.SKUItem(sku: g.sku()) } },
                    periodChange: maybe { g in
                        AC.PeriodChange(effective: g.pick(AC.Effective.allCases), period: g.pick(AC.Period.allCases))
                    },
                    descriptors: maybe { g in
                        AC.ModifyDescriptors(
                            effective: g.pick(AC.Effective.allCases), description: g.maybe { $0.description() },
                            displayName: g.maybe { $0.displayName() })
                    },
                    currency: maybe { $0.upperLetters(3) }, taxCode: maybe { $0.text() },
                    storefront: maybe { $0.upperLetters(3) }))
        default:
            return .reactivateSubscription(
                AC.SubscriptionReactivateInAppRequest(
                    requestInfo: requestInfo(), transactionId: digits(),
                    items: maybe { g in (0..<g.int(1...4)).map { _ in AC.SKUItem(sku: g.sku()) } },
                    storefront: maybe { $0.upperLetters(3) }))
        }
    }
}

/// Hundreds of random requests of every kind (a seeded generator, OFFERKIT_PROPERTY_SEED replays a
/// run): each signs and verifies back to what was asked for, and one forbidden character in any
/// field is refused naming that field.
@Suite("Random requests: round trips and refused characters")
struct RandomRequestTests {
    static let caseCount = 300

    /// `OFFERKIT_PROPERTY_SEED` (decimal or 0x-hex) replays a run; the default keeps CI deterministic.
    static let seed: UInt64 = {
        let text = ProcessInfo.processInfo.environment["OFFERKIT_PROPERTY_SEED"] ?? ""
        if text.hasPrefix("0x"), let value = UInt64(text.dropFirst(2), radix: 16) { return value }
        return UInt64(text) ?? 0x0FF3_4B17_5EED_2024
    }()

    private func generator(_ salt: UInt64) -> InputGenerator {
        print(
            "RandomRequestTests seed: 0x\(String(Self.seed, radix: 16)) (+\(salt)); replay with OFFERKIT_PROPERTY_SEED")
        return InputGenerator(rng: SplitMix64(seed: Self.seed &+ salt))
    }

    @Test func splitMix64IsDeterministic() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        let first = (0..<8).map { _ in a.next() }
        #expect(first == (0..<8).map { _ in b.next() })
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)  // published SplitMix64 reference value
    }

    @Test func promotionalOffersRoundTrip() throws {
        var gen = generator(1)
        let signer = try Demo.signer()
        for index in 0..<Self.caseCount {
            let transactionChoices: [String?] = [nil, gen.digits(), gen.text()]
            let request = PromotionalOfferRequest(
                productId: gen.text(), offerIdentifier: gen.text(), transactionId: gen.pick(transactionChoices))
            let nonce = gen.uuid(v4: true)
            let date = gen.date()
            let context = "case \(index), seed 0x\(String(Self.seed, radix: 16)): \(request)"
            let jws = try signer.sign(request, nonce: nonce, issuedAt: date)
            let verified = try TestJWS.verifier(at: date).verify(jws.serialization, as: .promotionalOffer)
            let claims = verified.claims
            #expect(claims.productId.map { Array($0.utf8) } == Array(request.productId.utf8), "\(context)")
            #expect(claims.offerIdentifier.map { Array($0.utf8) } == Array(request.offerIdentifier.utf8), "\(context)")
            #expect(
                claims.transactionId.map { Array($0.utf8) } == request.transactionId.map { Array($0.utf8) },
                "\(context)")
            #expect(claims.nonce == nonce.uuidString.lowercased(), "\(context)")
            #expect(claims.iat == Int64(date.timeIntervalSince1970.rounded(.down)), "\(context)")
            #expect(claims.iss == Demo.issuerId && claims.bid == Demo.bundleId, "\(context)")
            #expect(claims.aud == "promotional-offer" && claims.exp == nil, "\(context)")
            // The payload is valid JSON to an independent parser too.
            let object = try JSONSerialization.jsonObject(with: Data(verified.payloadJSON.utf8)) as? [String: Any]
            #expect(
                (object?["productId"] as? String).map { Array($0.utf8) } == Array(request.productId.utf8), "\(context)")
        }
    }

    @Test func introductoryOfferEligibilityRoundTrips() throws {
        var gen = generator(2)
        let signer = try Demo.signer()
        for index in 0..<Self.caseCount {
            let transactionChoices = [gen.digits(), gen.text()]
            let request = IntroductoryOfferEligibilityRequest(
                productId: gen.text(), allowIntroductoryOffer: gen.bool(), transactionId: gen.pick(transactionChoices))
            let date = gen.date()
            let jws = try signer.sign(request, issuedAt: date)
            let claims = try TestJWS.verifier(at: date).verify(jws.serialization, as: .introductoryOfferEligibility)
                .claims
            let context = "case \(index), seed 0x\(String(Self.seed, radix: 16)): \(request)"
            #expect(claims.productId.map { Array($0.utf8) } == Array(request.productId.utf8), "\(context)")
            #expect(claims.allowIntroductoryOffer == request.allowIntroductoryOffer, "\(context)")
            #expect(claims.transactionId.map { Array($0.utf8) } == Array(request.transactionId.utf8), "\(context)")
            #expect(claims.nonce == jws.nonce?.uuidString.lowercased(), "\(context)")
            #expect(claims.iat == Int64(date.timeIntervalSince1970.rounded(.down)), "\(context)")
        }
    }

    @Test func legacySignaturesRoundTrip() throws {
        var gen = generator(3)
        let signer = try Demo.signer()
        for index in 0..<Self.caseCount {
            let uuid = gen.uuid().uuidString
            let token = gen.pick(["", uuid, uuid.lowercased()])
            let request = LegacyPromotionalOfferRequest(
                productId: gen.text(), offerIdentifier: gen.text(), appAccountToken: token)
            let nonce = gen.uuid()
            let timestamp = gen.int64(946_684_800_000...4_102_444_800_000)  // 2000-01-01 to 2100-01-01
            let verifier = TestJWS.verifier(at: Date(timeIntervalSince1970: Double(timestamp / 1000)))
            let context = "case \(index), seed 0x\(String(Self.seed, radix: 16)): \(request)"
            let signature = try signer.sign(request, nonce: nonce, timestamp: timestamp)
            #expect(signature.appAccountToken == token.lowercased(), "\(context)")
            #expect(signature.nonce == nonce && signature.timestamp == timestamp, "\(context)")
            #expect(Data(base64Encoded: signature.signature) != nil, "\(context)")
            #expect(
                TestJWS.verificationError { () throws(VerificationError) in
                    try verifier.verify(signature, bundleId: Demo.bundleId)
                } == nil, "\(context)")
            // Through the promotionalOfferSignatureV1 JSON and back.
            let decoded = try JSONDecoder().decode(
                LegacyPromotionalOfferSignature.self, from: JSONEncoder().encode(signature))
            #expect(
                TestJWS.verificationError { () throws(VerificationError) in
                    try verifier.verify(decoded, bundleId: Demo.bundleId)
                } == nil, "\(context)")
            if index % 10 == 0 {
                let tampered = LegacyPromotionalOfferSignature(
                    keyId: signature.keyId, nonce: signature.nonce, timestamp: signature.timestamp + 1,
                    signature: signature.signature, productId: signature.productId,
                    offerIdentifier: signature.offerIdentifier, appAccountToken: signature.appAccountToken)
                #expect(
                    TestJWS.verificationError { () throws(VerificationError) in
                        try verifier.verify(tampered, bundleId: Demo.bundleId)
                    } == .signatureMismatch, "\(context)")
            }
        }
    }

    @Test func advancedCommerceRequestsRoundTrip() throws {
        var gen = generator(4)
        let signer = try Demo.signer()
        var operations = Set<AdvancedCommerce.Operation>()
        for index in 0..<Self.caseCount {
            let request = gen.inAppRequest()
            operations.insert(request.operation)
            let context =
                "case \(index), seed 0x\(String(Self.seed, radix: 16)): \(String(decoding: request.jsonBytes, as: UTF8.self))"
            try request.validate()
            let date = gen.date()
            let jws = try signer.sign(request, issuedAt: date)
            let verified = try TestJWS.verifier(at: date).verify(jws.serialization, as: .advancedCommerce)
            let decoded = try #require(verified.advancedCommerceRequest, "\(context)")
            #expect(decoded == request, "\(context)")
            #expect(decoded.jsonBytes == request.jsonBytes, "\(context)")
            let claim = try #require(verified.claims.request)
            #expect(Data(base64Encoded: claim).map(Array.init) == request.jsonBytes, "\(context)")
            #expect(try AdvancedCommerce.InAppRequest.decode(json: request.jsonBytes) == request, "\(context)")
            // Independent parser agrees the document is JSON with the right operation.
            let object = try JSONSerialization.jsonObject(with: Data(request.jsonBytes)) as? [String: Any]
            #expect(object?["operation"] as? String == request.operation.rawValue, "\(context)")
        }
        #expect(operations.count == 4)
    }

    @Test func controlCharactersAndSeparatorAreRejected() throws {
        var gen = generator(5)
        let signer = try Demo.signer()
        let codes: [UInt32] = Array(0x00...0x1F) + [0x7F, 0x85, 0x9F, 0x2063]
        let forbidden: [Unicode.Scalar] = codes.compactMap { (code: UInt32) -> Unicode.Scalar? in Unicode.Scalar(code) }
        for index in 0..<Self.caseCount {
            var scalars = Array(gen.text().unicodeScalars)
            scalars.insert(gen.pick(forbidden), at: gen.int(0...scalars.count))
            var bad = ""
            bad.unicodeScalars.append(contentsOf: scalars)
            let context = "case \(index), seed 0x\(String(Self.seed, radix: 16)): \(bad.debugDescription)"
            let field = gen.pick(["productId", "offerIdentifier", "transactionId"])
            let request = PromotionalOfferRequest(
                productId: field == "productId" ? bad : "p", offerIdentifier: field == "offerIdentifier" ? bad : "o",
                transactionId: field == "transactionId" ? bad : nil)
            let error = TestJWS.validationError { _ = try signer.sign(request) }
            guard case .invalidFormat(let actual, _)? = error else {
                Issue.record("expected invalidFormat, got \(String(describing: error)); \(context)")
                continue
            }
            #expect(actual == field, "\(context)")
            let legacyError = TestJWS.validationError {
                _ = try signer.sign(LegacyPromotionalOfferRequest(productId: "p", offerIdentifier: bad))
            }
            #expect(legacyError?.field == "offerIdentifier", "\(context)")
        }
    }
}
