import Foundation
import OfferJSON
import Testing

@testable import OfferSigning

/// Every public entry point that takes a number, given the extremes (Int64 bounds, −0, huge
/// exponents, NaN and infinite dates): each answers with an error that names the field and the
/// value, and none traps.
@Suite("Extreme values")
struct ExtremeValueTests {
    static let extremeSeconds: [Int64] = [
        .min, .min + 1, -1, 0, 1, ClaimTime.earliestSeconds - 1, ClaimTime.latestSeconds + 1, 9_007_199_254_740_993,
        .max - 512, .max,
    ]

    static let extremeDates: [Date] = [
        .distantPast, Date(timeIntervalSince1970: -0.0), Date(timeIntervalSince1970: .nan),
        Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: -.infinity),
        Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300),
        Date(timeIntervalSince1970: Double(Int64.max)), Date(timeIntervalSince1970: 9.3e18),
        Date(timeIntervalSince1970: Double(ClaimTime.latestSeconds + 1)),
        Date(timeIntervalSince1970: Double(ClaimTime.earliestSeconds) - 0.001),
    ]

    @Test("signing refuses every issue time outside 2000-01-01…9999-12-31, naming iat")
    func signingRefusesExtremeDates() throws {
        let signer = try Demo.signer()
        let request = PromotionalOfferRequest(productId: "p", offerIdentifier: "o")
        for date in Self.extremeDates {
            let error = TestJWS.validationError { _ = try signer.sign(request, issuedAt: date) }
            #expect(error?.field == "iat", "\(date.timeIntervalSince1970)")
            #expect(error?.errorDescription?.contains("2000-01-01") == true)
            let token = TestJWS.validationError { _ = try signer.serverAPIToken(issuedAt: date) }
            #expect(token?.field == "iat", "\(date.timeIntervalSince1970)")
            let connect = try ConnectAPITokenSigner(key: Demo.key, issuer: .individual)
            #expect(TestJWS.validationError { _ = try connect.token(issuedAt: date) }?.field == "iat")
            // A clock that reads such a time is refused the same way.
            let clocked = try Demo.signer(clock: .fixed(date))
            #expect(TestJWS.validationError { _ = try clocked.sign(request) }?.field == "iat")
            #expect(
                TestJWS.validationError {
                    _ = try clocked.sign(LegacyPromotionalOfferRequest(productId: "p", offerIdentifier: "o"))
                }?.field == "timestamp")
        }
    }

    @Test("the signing range's ends are signed exactly, with no Double rounding")
    func signingRangeEndsAreExact() throws {
        let signer = try Demo.signer()
        let request = PromotionalOfferRequest(productId: "p", offerIdentifier: "o")
        for seconds in [ClaimTime.earliestSeconds, 4_102_444_800, ClaimTime.latestSeconds] {
            let jws = try signer.sign(request, issuedAt: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(jws.issuedAtSeconds == seconds)
            #expect(TestJWS.payloadText(jws.serialization).contains(#""iat":\#(seconds),"#))
            let verified = try TestJWS.verifier(at: jws.issuedAt).verify(jws.serialization)
            #expect(verified.claims.iat == seconds)
        }
        let token = try signer.serverAPIToken(
            lifetime: 3600, issuedAt: Date(timeIntervalSince1970: TimeInterval(ClaimTime.latestSeconds)))
        #expect(token.expiresAtSeconds == ClaimTime.latestSeconds + 3600)
    }

    @Test("legacy timestamps: Int64 bounds and seconds given as milliseconds are refused, naming timestamp")
    func legacyTimestamps() throws {
        let signer = try Demo.signer()
        let request = LegacyPromotionalOfferRequest(productId: "p", offerIdentifier: "o")
        for timestamp in Self.extremeSeconds where timestamp < ClaimTime.earliestSeconds * 1000 {
            let error = TestJWS.validationError { _ = try signer.sign(request, timestamp: timestamp) }
            #expect(error?.field == "timestamp", "\(timestamp)")
            #expect(error?.errorDescription?.contains("found \(timestamp)") == true)
        }
        for timestamp in [ClaimTime.latestSeconds * 1000 + 1000, Int64.max] {
            #expect(
                TestJWS.validationError { _ = try signer.sign(request, timestamp: timestamp) }?.field == "timestamp")
        }
        let seconds = TestJWS.validationError { _ = try signer.sign(request, timestamp: 1_700_000_000) }
        #expect(seconds?.errorDescription?.contains("it looks like seconds: multiply by 1000") == true)
        for timestamp in [ClaimTime.earliestSeconds * 1000, ClaimTime.latestSeconds * 1000 + 999] {
            #expect(try signer.sign(request, timestamp: timestamp).timestamp == timestamp)
        }
    }

    @Test("token lifetimes at the Int bounds are refused, naming lifetime")
    func tokenLifetimes() throws {
        let signer = try Demo.signer()
        let connect = try ConnectAPITokenSigner(key: Demo.key, issuer: .individual)
        for lifetime in [Int.min, -1, 0, 3601, Int.max] {
            #expect(TestJWS.validationError { _ = try signer.serverAPIToken(lifetime: lifetime) }?.field == "lifetime")
        }
        for lifetime in [Int.min, -1, 0, 1201, Int.max] {
            #expect(TestJWS.validationError { _ = try connect.token(lifetime: lifetime) }?.field == "lifetime")
        }
    }

    // MARK: - Verification

    private static let iss = Demo.issuerId
    private static let bid = Demo.bundleId

    private static func verifyError(_ payload: String) throws -> VerificationError? {
        TestJWS.verifyError(try TestJWS.sign(payload: payload))
    }

    @Test("a correctly signed token with iat −2^63 and exp 2^63−1 is a failed check on iat, not an overflow")
    func tokenWithExtremeClaimsFails() throws {
        let payload =
            #"{"iss":"\#(Self.iss)","iat":-9223372036854775808,"exp":9223372036854775807,"aud":"appstoreconnect-v1","bid":"\#(Self.bid)"}"#
        let error = try Self.verifyError(payload)
        #expect(error?.field == "iat", "\(String(describing: error))")
        #expect(error?.errorDescription?.contains("found -9223372036854775808") == true)
        for (iat, exp) in [
            ("1700000000", "9223372036854775807"), ("1700000000", "-9223372036854775808"), ("1700000000", "1700000000"),
        ] {
            let other =
                #"{"iss":"\#(Self.iss)","iat":\#(iat),"exp":\#(exp),"aud":"appstoreconnect-v1","bid":"\#(Self.bid)"}"#
            #expect(try Self.verifyError(other)?.field == "exp", "\(exp)")
        }
    }

    @Test(
        "a promotional offer issued before 2000 or more than a day ahead is a failed check",
        arguments: [
            "-9223372036854775808", "-1", "0", "946684799", "9223372036854775807",
        ])
    func promotionalOfferWithImplausibleIssueTime(iat: String) throws {
        let payload =
            #"{"iss":"\#(Self.iss)","iat":\#(iat),"aud":"promotional-offer","bid":"\#(Self.bid)","nonce":"\#(TestJWS.fixedNonceLower)","productId":"p","offerIdentifier":"o"}"#
        let error = try Self.verifyError(payload)
        #expect(error?.field == "iat")
        #expect(error?.errorDescription?.contains("found \(iat)") == true)
    }

    @Test("the verifier's clock decides what is more than a day ahead")
    func issueTimeAgainstTheVerifiersClock() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let signer = try Demo.signer()
        let request = PromotionalOfferRequest(productId: "p", offerIdentifier: "o")
        let verifier = TestJWS.verifier(at: now)
        let withinADay = try signer.sign(request, issuedAt: now.addingTimeInterval(86_400))
        #expect(
            TestJWS.verificationError { () throws(VerificationError) in
                _ = try verifier.verify(withinADay.serialization)
            } == nil)
        let later = try signer.sign(request, issuedAt: now.addingTimeInterval(86_401))
        #expect(
            TestJWS.verificationError { () throws(VerificationError) in
                _ = try verifier.verify(later.serialization)
            }?.field == "iat")
        let legacy = try signer.sign(
            LegacyPromotionalOfferRequest(productId: "p", offerIdentifier: "o"), timestamp: 1_800_086_401_000)
        #expect(
            TestJWS.verificationError { () throws(VerificationError) in
                try verifier.verify(legacy, bundleId: Demo.bundleId)
            }?.field == "timestamp")
        for clock in [Date(timeIntervalSince1970: .nan), .distantFuture, .distantPast] {
            // A broken verifier clock never traps.
            _ = TestJWS.verificationError { () throws(VerificationError) in
                _ = try TestJWS.verifier(at: clock).verify(withinADay.serialization)
            }
        }
    }

    // MARK: - JSON numbers

    @Test(
        "exact integers, whatever the spelling",
        arguments: [
            ("0", Int64(0)), ("-0", 0), ("0.0", 0), ("0e5", 0), ("-0.000e-7", 0), ("6", 6), ("6.0", 6), ("6e0", 6),
            ("600e-2", 6), ("4.99e3", 4990), ("9007199254740993", 9_007_199_254_740_993),
            ("9007199254740993.0", 9_007_199_254_740_993), ("9223372036854775807", .max),
            ("-9223372036854775808", .min), ("922337203685477580.7e1", .max), ("1e18", 1_000_000_000_000_000_000),
        ])
    func exactIntegers(literal: String, value: Int64) {
        #expect(JSONValue.exactInteger(literal) == value, "\(literal)")
    }

    @Test(
        "not integers, or out of range",
        arguments: [
            "0.5", "1e-400", "-1e-400", "1e19", "9223372036854775808", "-9223372036854775809", "1e999999999999999999",
            "1.5e0", "4.9999e3", "1E+19",
        ])
    func notExactIntegers(literal: String) {
        #expect(JSONValue.exactInteger(literal) == nil, "\(literal)")
    }

    @Test("a long literal is read in linear time")
    func longLiteral() {
        let zeros = String(repeating: "0", count: 400_000)
        #expect(JSONValue.exactInteger("0." + zeros + "1e400001") == 1)
        #expect(JSONValue.exactInteger("1" + zeros + "e-400000") == 1)
        #expect(JSONValue.exactInteger("0." + zeros + "1") == nil)
    }

    @Test("Advanced Commerce: a price that is not exactly an integer is refused, whatever its spelling")
    func advancedCommercePrices() throws {
        func request(price: String) -> [UInt8] {
            Array(
                #"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"7b3c6a1e-2f4d-4e8a-9c1b-5d6e7f8a9b0c"},"currency":"USD","storefront":"USA","taxCode":"C003-00-2","item":{"SKU":"sku","description":"d","displayName":"n","price":\#(price)}}"#
                    .utf8)
        }
        for price in ["1e-400", "0.5", "4990.5", "1e19", "-1e-400", "4.9999e3"] {
            #expect(throws: RequestDecodingError.self, "\(price)") {
                try AdvancedCommerce.InAppRequest.decode(json: request(price: price))
            }
            do {
                _ = try AdvancedCommerce.InAppRequest.decode(json: request(price: price))
            } catch {
                #expect(error.path == "item.price", "\(price): \(error)")
                #expect(error.errorDescription?.contains(price) == true, "\(price): \(error)")
            }
        }
        for (price, value) in [
            ("4990", Int64(4990)), ("4.99e3", 4990), ("4990.000", 4990), ("9007199254740993.0", 9_007_199_254_740_993),
        ] {
            let decoded = try AdvancedCommerce.InAppRequest.decode(json: request(price: price))
            let json = String(decoding: decoded.jsonBytes, as: UTF8.self)
            #expect(json.contains(#""price":\#(value)"#), "\(price): \(json)")
        }
    }

    // MARK: - Batch

    @Test("a batch line with an extreme number gets its own error; its neighbours are signed")
    func batchLinesWithExtremeNumbers() throws {
        let batch = BatchSigner(signer: try Demo.signer())
        let good = Array(#"{"type":"promotional-offer","productId":"p","offerIdentifier":"o"}"#.utf8)
        let bad = [
            #"{"type":"promotional-offer","productId":"p","offerIdentifier":"o","iat":9223372036854775807}"#,
            #"{"type":"promotional-offer","productId":"p","offerIdentifier":"o","iat":-9223372036854775808}"#,
            #"{"type":"promotional-offer","productId":"p","offerIdentifier":"o","iat":1e400}"#,
            #"{"type":"promotional-offer-v1","productId":"p","offerIdentifier":"o","timestamp":9223372036854775807}"#,
            #"{"type":"server-api-token","lifetime":-9223372036854775808}"#,
            #"{"type":"server-api-token","lifetime":9223372036854775807}"#,
            #"{"id":9223372036854775807,"type":"server-api-token","lifetime":1e400}"#,
        ]
        for (index, line) in bad.enumerated() {
            #expect(batch.process(line: good, lineNumber: 1).succeeded)
            let result = batch.process(line: Array(line.utf8), lineNumber: index + 2)
            #expect(!result.succeeded, "\(line)")
            let text = String(decoding: result.json, as: UTF8.self)
            #expect(text.contains(#""code":"invalid-input""#), "\(text)")
        }
        let long = [UInt8](repeating: UInt8(ascii: " "), count: BatchSigner.maximumLineBytes + 1)
        let tooLong = batch.process(line: long, lineNumber: 9)
        #expect(!tooLong.succeeded)
        #expect(String(decoding: tooLong.json, as: UTF8.self).contains(#""code":"line-too-long""#))
    }
}
