import Crypto
import Foundation
import OfferAppleVerification
import OfferSigning

/// The Get Retention Message endpoint without HTTP: from the bytes the App Store posts to the
/// bytes to answer, or a refusal.
///
/// For each request, cheapest check first:
/// 1. the body is at most 64 KiB of `{"signedPayload": "<string>"}` (``RealtimeRequestBody``);
/// 2. the JWS is as Apple signs it and its payload a `DecodedRealtimeRequestBody`;
/// 3. its `appAppleId` is a configured app's and its `environment` an accepted one;
/// 4. its `signedDate` is at most `maxRequestAgeSeconds` old and at most 60 s ahead;
/// 5. `AppleSignedDataVerifier` of that app and environment verifies it: the `x5c` chain to a
///    trusted root with Apple's extensions, valid at `signedDate`; the ES256 signature.
///
/// Then the decider chooses (``RuleDecider`` at once; any other under its time budget), the
/// offer is signed with the app's key and the answer encoded (``RealtimeResponseBody``). An
/// answer is remembered by `requestIdentifier` until its request is stale (`signedDate` plus
/// `maxRequestAgeSeconds`): the same payload again gets the same bytes.
///
/// ```swift
/// let responder = try RetentionResponder(
///     apps: [RetentionApp(appAppleId: 1234567890, signer: signer)],
///     settings: RetentionSettings(environments: [.sandbox, .production]),
///     decider: RuleDecider(["com.example.app": try RetentionRules(json: rulesJSON)]))
/// switch await responder.respond(to: body) {
/// case .answered(let answer): // 200, Content-Type: application/json, answer.body
/// case .unauthorized: // 401
/// }
/// ```
public struct RetentionResponder: Sendable {
    /// The apps served, by App Apple ID, each with a verifier per accepted environment.
    private let routes: [Int64: Route]
    public let settings: RetentionSettings
    public let decider: any RetentionDecider
    private let rules: RuleDecider?
    private let offerCheck: RetentionOfferCheck?
    private let clock: SigningClock
    private let cache: RetentionReplayCache

    private struct Route: Sendable {
        let app: RetentionApp
        let verifiers: [AppleEnvironment: AppleSignedDataVerifier]
    }

    /// - Parameters:
    ///   - apps: the apps the endpoint serves, each with the signer of its key.
    ///   - settings: the environments, trusted roots, request age and time budgets.
    ///   - decider: chooses each answer (``RuleDecider`` for rules, or your own ``RetentionDecider``).
    ///   - clock: the time `signedDate` is checked against (the signers keep their own).
    ///   - offerCheck: asked about every promotional offer a decider of your own names, before it is
    ///     signed (the service's code ledger); `nil` signs what the decider chose. Rules are not asked.
    /// - Throws: ``RetentionSetupError`` for two apps with one App Apple ID, no environment, no
    ///   root, or a setting out of range.
    public init(
        apps: [RetentionApp], settings: RetentionSettings, decider: any RetentionDecider,
        clock: SigningClock = .system, offerCheck: RetentionOfferCheck? = nil
    ) throws(RetentionSetupError) {
        guard !settings.environments.isEmpty else { throw .noEnvironments }
        guard !settings.rootCertificates.isEmpty else { throw .noTrustedRoots }
        guard RetentionSettings.maxRequestAgeRange.contains(settings.maxRequestAgeSeconds) else {
            throw .outOfRange(
                setting: "maxRequestAgeSeconds",
                expected: "\(RetentionSettings.maxRequestAgeRange.lowerBound) to "
                    + "\(RetentionSettings.maxRequestAgeRange.upperBound) seconds, found \(settings.maxRequestAgeSeconds)"
            )
        }
        guard RetentionSettings.acceptsDeciderTimeBudget(settings.deciderTimeBudget) else {
            throw .outOfRange(
                setting: "deciderTimeBudget",
                expected: "more than 0 and at most 60 seconds, found \(settings.deciderTimeBudget)")
        }
        guard settings.replayCacheCapacity >= 0 else {
            throw .outOfRange(setting: "replayCacheCapacity", expected: "0 or more")
        }
        var routes: [Int64: Route] = [:]
        for app in apps {
            guard (1...(Int64(1) << 53)).contains(app.appAppleId) else {
                throw .invalidAppAppleId(app.appAppleId, bundleId: app.bundleId)
            }
            if let other = routes[app.appAppleId] {
                throw .duplicateAppAppleId(app.appAppleId, bundleIds: [other.app.bundleId, app.bundleId].sorted())
            }
            var verifiers: [AppleEnvironment: AppleSignedDataVerifier] = [:]
            for environment in settings.environments {
                do {
                    verifiers[environment] = try AppleSignedDataVerifier(
                        rootCertificates: settings.rootCertificates, bundleId: app.bundleId, environment: environment,
                        appAppleId: app.appAppleId)
                } catch {
                    throw .noTrustedRoots
                }
            }
            routes[app.appAppleId] = Route(app: app, verifiers: verifiers)
        }
        self.routes = routes
        self.settings = settings
        self.decider = decider
        self.rules = decider as? RuleDecider
        self.offerCheck = offerCheck
        self.clock = clock
        self.cache = RetentionReplayCache(capacity: settings.replayCacheCapacity)
    }

    /// The apps served, ordered by bundle ID.
    public var apps: [RetentionApp] { routes.values.map(\.app).sorted { $0.bundleId < $1.bundleId } }

    /// How many answers are remembered for retries now.
    public var rememberedAnswers: Int { cache.count }

    /// Answers the body of a POST from the App Store.
    ///
    /// - Parameter body: The request's body as it came.
    public func respond(to body: [UInt8]) async -> RetentionOutcome {
        guard body.count <= RealtimeRequestBody.maximumBytes else { return .unauthorized(.bodyTooLarge) }
        guard let jws = RealtimeRequestBody.signedPayload(in: body) else { return .unauthorized(.malformedBody) }
        let signed: AppleCompactJWS
        let claimed: DecodedRealtimeRequestBody
        do {
            signed = try AppleCompactJWS(jws)
        } catch {
            return .unauthorized(.malformedJWS)
        }
        do {
            claimed = try AppleSignedDataVerifier.decode(DecodedRealtimeRequestBody.self, from: signed)
        } catch {
            return .unauthorized(.payloadUnreadable)
        }
        // Read before verification, only to pick the verifier: nothing is answered unverified.
        guard let route = routes[claimed.appAppleId] else { return .unauthorized(.unknownApp) }
        guard let environment = AppleEnvironment(rawValue: claimed.environment),
            let verifier = route.verifiers[environment]
        else { return .unauthorized(.environmentNotAccepted) }
        let now = clock.now()
        guard isFresh(claimed.signedDate, now: now) else { return .unauthorized(.stale) }
        let request: DecodedRealtimeRequestBody
        do {
            request = try await verifier.verifyRealtimeRequest(signed)
        } catch {
            return .unauthorized(Self.rejection(for: error))
        }
        return .answered(await answer(request, payload: signed.payloadBytes, app: route.app, now: now))
    }

    private func answer(
        _ request: DecodedRealtimeRequestBody, payload: [UInt8], app: RetentionApp, now: Date
    ) async -> RetentionAnswer {
        let digest = SHA256.hash(data: payload)
        var replay = RetentionReplay.fresh
        switch cache.lookup(request.requestIdentifier, payloadDigest: digest, now: now) {
        case .hit(let kind, let body):
            return RetentionAnswer(
                kind: kind, body: body, request: request, bundleId: app.bundleId, replay: .replayed, hookFailure: nil)
        case .differentPayload: replay = .differentPayload
        case .miss: break
        }
        var decided: Result<RetentionDecision, RetentionHookFailure>
        if let rules {
            decided = .success(rules.decision(for: request, bundleId: app.bundleId))
        } else {
            decided = await DeciderCall.decide(
                decider, request: request, bundleId: app.bundleId, budget: settings.deciderTimeBudget)
        }
        // Rules were checked when the service started; a decider's choice is checked now.
        if rules == nil, let offerCheck, case .success(let decision) = decided,
            let refusal = await offerCheck.refusal(of: decision, bundleId: app.bundleId)
        {
            decided = .failure(.unusable(reason: refusal))
        }
        let encoded = decided.flatMap { decision in
            Result { () throws(RetentionHookFailure) in
                (decision.kind, try RealtimeResponseBody.encode(decision, for: request, signer: app.signer))
            }
        }
        switch encoded {
        case .success(let (kind, body)):
            // Two copies of one request at once: the first remembered answers both.
            let kept = cache.store(
                request.requestIdentifier, payloadDigest: digest, kind: kind, body: body,
                expires: staleAfter(request.signedDate), now: now)
            return RetentionAnswer(
                kind: kept.kind, body: kept.body, request: request, bundleId: app.bundleId,
                replay: kept.body == body ? replay : .replayed, hookFailure: nil)
        case .failure(let failure):
            // Not remembered: a retry asks the decider again.
            return RetentionAnswer(
                kind: .hookFailed, body: Array("{}".utf8), request: request, bundleId: app.bundleId, replay: replay,
                hookFailure: failure)
        }
    }

    /// The first time at which a request signed at `signedDate` (milliseconds) is stale.
    private func staleAfter(_ signedDate: Int64) -> Date {
        // A fresh request's signedDate is within a minute of now: no overflow.
        Date(timeIntervalSince1970: Double(signedDate + Int64(settings.maxRequestAgeSeconds) * 1000 + 1) / 1000)
    }

    /// Whether `signedDate` (milliseconds) is at most `maxRequestAgeSeconds` before `now` and at
    /// most 60 s after it.
    private func isFresh(_ signedDate: Int64, now: Date) -> Bool {
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let (age, overflow) = nowMilliseconds.subtractingReportingOverflow(signedDate)
        guard !overflow else { return false }
        return age <= Int64(settings.maxRequestAgeSeconds) * 1000
            && age >= -Int64(RetentionSettings.futureSkewSeconds) * 1000
    }

    static func rejection(for error: AppleVerificationError) -> RetentionRejection {
        switch error {
        case .inputTooLarge, .malformed, .algorithmNotES256, .certificateChainLength, .unreadableCertificate:
            .malformedJWS
        case .signatureInvalid: .signatureInvalid
        case .payloadUnreadable: .payloadUnreadable
        case .bundleIdMismatch, .appAppleIdMismatch: .unknownApp
        case .environmentMismatch: .environmentNotAccepted
        case .nested(_, let inner): rejection(for: inner)
        case .missingAppleExtension, .certificateNotValid, .untrustedChain, .appAppleIdRequired, .bundleIdRequired,
            .noTrustedRoots, .unreadableRootCertificate:
            .untrustedChain
        }
    }
}
