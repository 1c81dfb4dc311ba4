import AppleTestChain
import Foundation
import OfferAppleVerification
import OfferRetentionEndpoint
import OfferSigning

/// The demo key's signers, the example rules and responders over the Swift-made test chain.
enum RetentionFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let keyFile = packageRoot.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.p8").path
    static let publicKeyFile = packageRoot.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.pub.pem")
        .path
    static let keyId = "DEMOKEY123"
    static let issuerId = "98802e6e-bab8-4f06-8c88-a2582cda3c9c"

    /// A fixed "now" for the engine's tests: 2026-03-01T12:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_772_366_400)
    static var nowMilliseconds: Int64 { Int64(now.timeIntervalSince1970 * 1000) }

    static let key: SigningKey = {
        do {
            return try SigningKey(contentsOfFile: keyFile, keyId: keyId)
        } catch {
            fatalError("keys-example/SubscriptionKey_DEMOKEY123.p8 does not load: \(error)")
        }
    }()

    static func signer(_ bundleId: String = RetentionExample.bundleId, clock: SigningClock = .system) -> OfferSigner {
        do {
            return try OfferSigner(key: key, issuerId: issuerId, bundleId: bundleId, clock: clock)
        } catch {
            fatalError("the demo signer cannot be made: \(error)")
        }
    }

    static let rules: RetentionRules = {
        do {
            return try RetentionRules(json: Array(RetentionExample.rulesJSON.utf8))
        } catch {
            fatalError("the example rules do not load: \(error.localizedDescription)")
        }
    }()

    static var apps: [RetentionApp] {
        [
            RetentionApp(appAppleId: RetentionExample.appAppleId, signer: signer()),
            RetentionApp(appAppleId: RetentionExample.otherAppAppleId, signer: signer(RetentionExample.otherBundleId)),
        ]
    }

    /// The decider's budget is a minute unless a test gives one: in a full run, tests that block the
    /// cooperative pool can delay a decider's answer past the service's 500 ms, and only the tests of
    /// an overrunning decider are about the budget (they give their own).
    static func settings(
        environments: Set<AppleEnvironment> = [.sandbox], budget: Duration = .seconds(60),
        capacity: Int = 100_000, maxAge: Int = 300
    ) -> RetentionSettings {
        RetentionSettings(
            environments: environments, rootCertificates: [AppleTestChain.shared.root], maxRequestAgeSeconds: maxAge,
            deciderTimeBudget: budget, replayCacheCapacity: capacity)
    }

    /// A responder for both demo apps; the clock reads ``now`` unless given.
    static func responder(
        decider: (any RetentionDecider)? = nil, settings: RetentionSettings = settings(),
        clock: SigningClock = .fixed(now)
    ) throws -> RetentionResponder {
        try RetentionResponder(
            apps: apps, settings: settings,
            decider: decider ?? RuleDecider([RetentionExample.bundleId: rules]), clock: clock)
    }

    /// The body of a request signed on the test chain, signed at ``now`` unless told.
    static func body(
        productId: String = "com.example.offerkit.monthly", userLocale: String = "en-US",
        appAppleId: Int64 = RetentionExample.appAppleId, environment: String = "Sandbox",
        requestIdentifier: UUID = UUID(), signedDate: Int64? = nil, variant: AppleTestChain.Variant = .good
    ) throws -> [UInt8] {
        let payload = RealtimeRequestPayload(
            appAppleId: appAppleId, productId: productId, userLocale: userLocale,
            requestIdentifier: requestIdentifier, environment: environment,
            signedDate: signedDate ?? nowMilliseconds)
        return AppleTestChain.body(try AppleTestChain.shared.sign(payload.json, variant: variant))
    }

    static let publicKeyPEM: String = {
        guard let pem = try? String(contentsOfFile: publicKeyFile, encoding: .utf8) else {
            fatalError("keys-example/SubscriptionKey_DEMOKEY123.pub.pem is missing")
        }
        return pem
    }()
}
