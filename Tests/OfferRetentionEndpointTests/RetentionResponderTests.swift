import AppleTestChain
import Foundation
import OfferAppleVerification
import OfferRetentionEndpoint
import OfferSigning
import Testing

@Suite("Get Retention Message: the responder")
struct RetentionResponderTests {
    @Test("each decision kind of the example rules is answered, its offer signed for this customer")
    func eachKind() async throws {
        let responder = try RetentionFixtures.responder()
        for (productId, userLocale, kind) in RetentionExample.requests {
            let outcome = await responder.respond(
                to: try RetentionFixtures.body(productId: productId, userLocale: userLocale))
            guard case .answered(let answer) = outcome else {
                Issue.record("\(productId) \(userLocale): \(outcome)")
                continue
            }
            #expect(answer.kind.rawValue == kind)
            #expect(answer.bundleId == RetentionExample.bundleId)
            #expect(answer.replay == .fresh)
            try AnswerChecks.expect(answer.body, is: kind)
        }
    }

    @Test(
        "every broken chain or signature is refused with its reason",
        arguments: AppleTestChain.Variant.broken)
    func brokenVariants(_ variant: AppleTestChain.Variant) async throws {
        let responder = try RetentionFixtures.responder()
        let outcome = await responder.respond(to: try RetentionFixtures.body(variant: variant))
        let expected: RetentionRejection =
            switch variant {
            case .algorithmES384, .algorithmNone, .chainOf1, .chainOf2, .chainOf4, .critUnknown, .critB64False,
                .b64True,
                .paddedSignature, .signatureTrailingBits:
                .malformedJWS
            case .badSignature, .payloadChangedAfterSigning, .signedByAnotherKey: .signatureInvalid
            default: .untrustedChain
            }
        guard case .unauthorized(let reason) = outcome else {
            Issue.record("\(variant) was answered: \(outcome)")
            return
        }
        #expect(reason == expected, "\(variant)")
    }

    @Test("a request respelled with the other S (high or low) is answered, and is the same request: a replay")
    func highSTwinIsAReplay() async throws {
        let responder = try RetentionFixtures.responder()
        let body = try RetentionFixtures.body()
        let jws = try #require(RealtimeRequestBody.signedPayload(in: body))
        let twin = AppleTestChain.otherS(jws)
        #expect(twin != jws && AppleTestChain.otherS(twin) == jws)
        guard case .answered(let first) = await responder.respond(to: AppleTestChain.body(twin)),
            case .answered(let second) = await responder.respond(to: body)
        else {
            Issue.record("a signature, or its twin of the other S, was not answered")
            return
        }
        #expect(first.replay == .fresh && second.replay == .replayed)
        #expect(first.body == second.body)
    }

    @Test("the same request again gets the same bytes: the same nonce and signature")
    func replay() async throws {
        let responder = try RetentionFixtures.responder()
        for (productId, userLocale, _) in RetentionExample.requests {
            let body = try RetentionFixtures.body(productId: productId, userLocale: userLocale)
            guard case .answered(let first) = await responder.respond(to: body),
                case .answered(let second) = await responder.respond(to: body)
            else {
                Issue.record("not answered")
                return
            }
            #expect(first.body == second.body)
            #expect(first.replay == .fresh && second.replay == .replayed)
            #expect(first.kind == second.kind)
        }
        // Signed again (a new signature over the same payload): still the same answer.
        let id = UUID()
        let payload = RealtimeRequestPayload(requestIdentifier: id, signedDate: RetentionFixtures.nowMilliseconds)
        let one = AppleTestChain.body(try AppleTestChain.shared.sign(payload.json))
        let two = AppleTestChain.body(try AppleTestChain.shared.sign(payload.json))
        #expect(one != two)
        guard case .answered(let a) = await responder.respond(to: one),
            case .answered(let b) = await responder.respond(to: two)
        else {
            Issue.record("not answered")
            return
        }
        #expect(a.body == b.body && b.replay == .replayed)
    }

    @Test("another payload under a requestIdentifier already answered is answered afresh")
    func differentPayloadSameIdentifier() async throws {
        let responder = try RetentionFixtures.responder()
        let id = UUID()
        let first = try RetentionFixtures.body(requestIdentifier: id)
        let other = try RetentionFixtures.body(productId: "com.example.offerkit.yearly", requestIdentifier: id)
        guard case .answered(let a) = await responder.respond(to: first),
            case .answered(let b) = await responder.respond(to: other),
            case .answered(let c) = await responder.respond(to: other)
        else {
            Issue.record("not answered")
            return
        }
        #expect(a.kind == .promotionalOffer && b.kind == .alternateProduct)
        #expect(b.replay == .differentPayload)
        #expect(c.replay == .replayed && c.body == b.body)
    }

    @Test("copies of one request at once all get the same bytes")
    func concurrentCopies() async throws {
        let responder = try RetentionFixtures.responder()
        let body = try RetentionFixtures.body()
        let bodies = await withTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    if case .answered(let answer) = await responder.respond(to: body) { return answer.body }
                    return nil
                }
            }
            var all: [[UInt8]?] = []
            for await body in group { all.append(body) }
            return all
        }
        #expect(bodies.count == 32 && bodies.allSatisfy { $0 != nil })
        #expect(Set(bodies.compactMap { $0 }).count == 1)
    }

    @Test("another app's App Apple ID, an environment not accepted, a malformed body: refused")
    func wrongAppOrEnvironment() async throws {
        let responder = try RetentionFixtures.responder()
        let cases: [([UInt8], RetentionRejection)] = [
            (try RetentionFixtures.body(appAppleId: 42), .unknownApp),
            (try RetentionFixtures.body(environment: "Production"), .environmentNotAccepted),
            (try RetentionFixtures.body(environment: "Xcode"), .environmentNotAccepted),
            (Array(#"{"signedPayload": 1}"#.utf8), .malformedBody),
            (Array(#"{"signedPayload": "a.b.c", "other": 1}"#.utf8), .malformedBody),
            (Array(#"{"signedPayload": "a", "signedPayload": "b"}"#.utf8), .malformedBody),
            (Array("not json".utf8), .malformedBody),
            (Array(#"{"signedPayload": "a.b.c"}"#.utf8), .malformedJWS),
            (Array(repeating: UInt8(ascii: " "), count: RealtimeRequestBody.maximumBytes + 1), .bodyTooLarge),
        ]
        for (body, expected) in cases {
            guard case .unauthorized(let reason) = await responder.respond(to: body) else {
                Issue.record("answered: \(String(decoding: body.prefix(80), as: UTF8.self))")
                continue
            }
            #expect(reason == expected)
        }
        // The other app is served with its own key (and has no rules: the default answer).
        guard
            case .answered(let other) = await responder.respond(
                to: try RetentionFixtures.body(appAppleId: RetentionExample.otherAppAppleId))
        else {
            Issue.record("the other app's request was refused")
            return
        }
        #expect(other.bundleId == RetentionExample.otherBundleId && other.kind == .default)
        // Production accepted when configured.
        let both = try RetentionFixtures.responder(
            settings: RetentionFixtures.settings(environments: [.sandbox, .production]))
        guard case .answered = await both.respond(to: try RetentionFixtures.body(environment: "Production")) else {
            Issue.record("a production request was refused")
            return
        }
    }

    @Test(
        "a signedDate older than maxRequestAgeSeconds or over 60 s ahead is stale",
        arguments: [
            (-300_000, true), (-300_001, false), (60_000, true), (60_001, false), (Int64.min / 2, false),
            (Int64.max / 2, false),
        ] as [(Int64, Bool)])
    func freshness(offset: Int64, accepted: Bool) async throws {
        let responder = try RetentionFixtures.responder()
        let outcome = await responder.respond(
            to: try RetentionFixtures.body(signedDate: RetentionFixtures.nowMilliseconds &+ offset))
        switch outcome {
        case .answered: #expect(accepted, "offset \(offset) ms")
        case .unauthorized(let reason): #expect(!accepted && reason == .stale, "offset \(offset) ms: \(reason)")
        }
    }
}
