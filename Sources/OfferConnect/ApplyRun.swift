import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import OfferCodes
import OfferConnectAPI
import OfferJSON
import OfferLedger
import OfferSigning

/// Sends a campaign's plan to App Store Connect, exactly once per resource, resumable after any
/// failure: the engine of `offerkit codes apply` and `offerkit codes fetch`.
///
/// ## What a run does
/// 1. Records the plan's resources in the ledger as `planned` (those not yet recorded), after
///    checking that no created resource was made from another body than the campaign now plans.
///    Before it records them, checks for the offers still to create that each product has in App
///    Store Connect the product identifier the campaign gives it (``ProductCheck``): a run whose
///    campaign names another creates and records nothing.
/// 2. For each offer in campaign order: creates it unless the ledger holds its id; then its
///    one-time-use batches (one after the other) and its custom codes (in parallel, at most
///    ``ConnectTransport/Settings/parallel`` requests in flight), each unless created. Then the
///    campaign's promotional, introductory (one per territory) and win-back offers, in parallel,
///    each unless created.
/// 3. Fetches the codes of each created one-time-use batch whose codes the ledger lacks
///    (`GET …/values`, `text/csv`), waiting while App Store Connect has not produced them, and
///    imports them as `codes import` does.
///
/// ## Exactly once
/// Before a create request leaves, its resource is recorded `sent` (on disk). When its outcome
/// is unknown (no answer within the timeout, a dropped connection, a `5xx`, or a run killed in
/// between), the resource is never sent blindly again: after a pause as long as the request
/// timeout (up to 10 s, time for a slow server to finish it), the run lists the parent's
/// resources and, if it is there, records its id; only if it is not is it sent again. A `429`
/// and a failure to connect mean it was not processed: it is sent again after the wait.
///
/// ## When App Store Connect refuses something
/// The resource is recorded `failed` with Apple's errors, mapped back to the campaign path; the
/// resources that depend on it (a refused offer's batches and codes) are skipped; independent
/// ones go on. The next run sends refused and skipped resources again. When App Store Connect
/// cannot be reached after the retries, or refuses the API key, the run starts nothing more,
/// lets the requests in flight finish, and stops: everything that succeeded is recorded.
public struct ApplyRun: Sendable {
    let campaign: Campaign
    let requests: [PlannedRequest]
    let ledger: CodeLedger
    let transport: ConnectTransport
    let today: CalendarDate
    /// How long to wait for one-time-use codes App Store Connect has not produced yet.
    let valuesWait: Duration
    let events: @Sendable (ApplyEvent) -> Void
    let finder: ResourceFinder
    let counters = NIOLockedValueBox(Counters())

    struct Counters {
        var summary = ApplySummary()
        var done = 0
        var stop: ConnectError?
    }

    /// - Parameters:
    ///   - requests: the campaign's plan (``RequestPlanner``).
    ///   - signer: makes the bearer tokens; `tokenLifetime` in seconds (at most 1200).
    ///   - today: the day whose quarter imported one-time-use batches count in.
    public init(
        campaign: Campaign, requests: [PlannedRequest], ledger: CodeLedger, address: ConnectAPIAddress,
        signer: ConnectAPITokenSigner, tokenLifetime: Int = 600, settings: ConnectTransport.Settings = .init(),
        today: CalendarDate, valuesWait: Duration = .seconds(60),
        events: @escaping @Sendable (ApplyEvent) -> Void = { _ in }
    ) {
        self.campaign = campaign
        self.requests = requests
        self.ledger = ledger
        self.today = today
        self.valuesWait = valuesWait
        self.events = events
        let counters = counters
        transport = ConnectTransport(
            address: address, tokens: ConnectTokenSource(signer: signer, lifetime: tokenLifetime), settings: settings
        ) { exchange in
            counters.withLockedValue { $0.summary.requests += 1 }
            events(.exchange(exchange))
        }
        finder = ResourceFinder(transport: transport)
    }

    /// Applies the plan (and fetches one-time-use codes). Returns the summary; a run that
    /// stopped early says why in ``ApplySummary/stoppedBy``.
    ///
    /// - Throws: ``ConnectError/planChanged(resources:)`` (nothing sent) and
    ///   ``ConnectError/productIdMismatch(paths:product:id:campaign:connect:)`` (nothing created or
    ///   recorded), and ledger errors.
    public func run() async throws -> ApplySummary {
        try await whileLocked { try await applyPlan() }
    }

    /// Runs `body` holding the campaign's run lock (``CodeLedger/lockConnectRun(campaign:)``),
    /// then releases it and closes the connections, however `body` ends.
    private func whileLocked(_ body: () async throws -> ApplySummary) async throws -> ApplySummary {
        let name = campaign.name
        let lock: ConnectRunLock
        do {
            lock = try await ledger.lockConnectRun(campaign: name)
        } catch {
            await shutdown()
            throw error
        }
        do {
            let summary = try await body()
            await lock.release()
            await shutdown()
            return summary
        } catch {
            await lock.release()
            await shutdown()
            throw error
        }
    }

    /// Closes the connections.
    private func shutdown() async {
        await transport.shutdown()
    }

    private func applyPlan() async throws -> ApplySummary {
        let started = ContinuousClock.now
        let book = ResourceBook(ledger: ledger)
        let now = Date()
        let planned = requests.map { ConnectResource(planned: $0, campaign: campaign, now: now) }
        try await book.read(planned, campaign: campaign.name)
        try await book.loadIdsInUse()
        let pairs = Array(zip(requests, planned))
        // The products of the offers still to create, checked before the plan is recorded: a
        // refused campaign leaves the ledger as it was.
        var created: Set<String> = []
        for (request, resource) in pairs {
            let recorded = await book.resource(resource)
            if recorded.state == .created, recorded.id != nil { created.insert(request.id) }
        }
        counters.withLockedValue { $0.summary.planned = planned.count }
        do {
            try await ProductCheck(transport: transport).verify(
                campaign: campaign, offers: requests.filter { $0.subject.kind == .offer },
                toCreate: { !created.contains($0.id) })
        } catch let error as ConnectError {
            if case .productIdMismatch = error { throw error }
            // App Store Connect not reached, the key refused, the hour spent: the run stops as at
            // any request, before it created anything; what exists is counted as there.
            stop(error)
        }
        try await book.recordPlan()
        events(.progress(done: 0, total: planned.count))
        if stopped { finish(created.count, .alreadyThere) }

        let byOffer = Dictionary(
            grouping: pairs.filter { $0.0.subject.offerKind == .offerCode }, by: { $0.0.subject.offerIndex })
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for offerIndex in campaign.offers.indices {
                guard let items = byOffer[offerIndex],
                    let offerItem = items.first(where: { $0.0.subject.kind == .offer })
                else { continue }
                if stopped { break }
                let offerId = try await ensure(offerItem.0, offerItem.1, book: book, parentId: nil)
                let children = items.filter { $0.0.subject.kind != .offer }
                guard let offerId else {
                    finish(children.count, stopped ? .unfinished : .skipped)
                    continue
                }
                let oneTimeUse = children.filter { $0.0.subject.kind == .oneTimeUse }
                let custom = children.filter { $0.0.subject.kind == .customCode }
                var tasks: [@Sendable () async throws -> Void] = []
                if !oneTimeUse.isEmpty {
                    // One after the other: a lookup tells equal batches apart only by what the others took.
                    tasks.append {
                        for (request, resource) in oneTimeUse {
                            if self.stopped {
                                self.finish(1, .unfinished)
                                continue
                            }
                            _ = try await self.ensure(request, resource, book: book, parentId: offerId)
                        }
                    }
                }
                for (request, resource) in custom {
                    tasks.append {
                        if self.stopped {
                            self.finish(1, .unfinished)
                            return
                        }
                        _ = try await self.ensure(request, resource, book: book, parentId: offerId)
                    }
                }
                for task in tasks {
                    if inFlight >= transport.settings.parallel {
                        try await group.next()
                        inFlight -= 1
                    }
                    group.addTask(operation: task)
                    inFlight += 1
                }
            }
            // Promotional, introductory and win-back offers: each stands alone (its subscription
            // is named by id), in parallel like custom codes.
            for (request, resource) in pairs where request.subject.offerKind != .offerCode {
                if inFlight >= transport.settings.parallel {
                    try await group.next()
                    inFlight -= 1
                }
                group.addTask {
                    if self.stopped {
                        self.finish(1, .unfinished)
                        return
                    }
                    _ = try await self.ensure(request, resource, book: book, parentId: nil)
                }
                inFlight += 1
            }
            try await group.waitForAll()
        }
        if !stopped { try await fetchCodes(book: book) }
        let rateLimit = await transport.pacer.lastStatus
        return counters.withLockedValue { counters in
            var summary = counters.summary
            summary.rateLimit = rateLimit
            summary.stoppedBy = counters.stop
            summary.duration = ContinuousClock.now - started
            // Whatever did not end created, there, refused or skipped: including the offers a stop
            // never reached.
            summary.unfinished = max(
                0, summary.planned - summary.created - summary.alreadyThere - summary.refused.count - summary.skipped)
            return summary
        }
    }

    /// Fetches and imports the codes of the campaign's created one-time-use batches that the
    /// ledger lacks (`offerkit codes fetch`); see ``run()``.
    public func fetchOnly() async throws -> ApplySummary {
        try await whileLocked {
            let started = ContinuousClock.now
            let book = ResourceBook(ledger: ledger)
            try await book.load([], campaign: campaign.name)
            try await fetchCodes(book: book)
            let rateLimit = await transport.pacer.lastStatus
            return counters.withLockedValue { counters in
                var summary = counters.summary
                summary.rateLimit = rateLimit
                summary.stoppedBy = counters.stop
                summary.duration = ContinuousClock.now - started
                return summary
            }
        }
    }

    var stopped: Bool { counters.withLockedValue { $0.stop != nil } }

    func stop(_ error: ConnectError) {
        counters.withLockedValue { if $0.stop == nil { $0.stop = error } }
    }

    /// How a resource's part of the run ended.
    enum Outcome {
        case created, alreadyThere, refused, skipped, unfinished
    }

    func finish(_ count: Int, _ outcome: Outcome) {
        guard count > 0 else { return }
        let (done, total) = counters.withLockedValue { counters in
            counters.done += count
            switch outcome {
            case .created: counters.summary.created += count
            case .alreadyThere: counters.summary.alreadyThere += count
            case .refused: break  // counted with its errors
            case .skipped: counters.summary.skipped += count
            case .unfinished: break  // counted at the end, with what a stop never reached
            }
            return (counters.done, counters.summary.planned)
        }
        events(.progress(done: done, total: total))
    }

    /// Makes sure the resource exists; returns its id, or `nil` when it was refused or its
    /// outcome stays unknown (then the run is stopped, or the refusal recorded).
    private func ensure(
        _ request: PlannedRequest, _ planned: ConnectResource, book: ResourceBook, parentId: String?
    ) async throws -> String? {
        var resource = await book.resource(planned)
        if resource.state == .created, let id = resource.id {
            finish(1, .alreadyThere)
            return id
        }
        do {
            // Once an attempt's outcome is unknown, the resource may exist: a later refusal (a
            // duplicate, say) is checked against App Store Connect's list before it is believed.
            var uncertain = resource.state == .sent
            if resource.state == .sent {
                events(.note("\(resource.label): the outcome of an earlier request is unknown: looking it up"))
                if let id = try await lookUp(request, resource, book: book, parentId: parentId) { return id }
            }
            let body = Self.substitute(request.body, parentId: parentId, request: request).serialized()
            var lastReason = ""
            for attempt in 0..<transport.settings.attempts {
                if stopped {
                    finish(1, .unfinished)
                    return nil
                }
                var sending = resource.with(state: .sent, at: Date())
                sending.bodyDigest = planned.bodyDigest
                sending.requestId = planned.requestId
                resource = try await book.record(sending)
                let outcome = try await transport.attempt(.POST, request.path, body: body)
                switch Self.classify(outcome) {
                case .created(let id):
                    try await book.record(resource.with(state: .created, id: id, at: Date()))
                    finish(1, .created)
                    return id
                case .notAuthorized(let answer):
                    try await book.record(resource.with(state: uncertain ? .sent : .planned, at: Date()))
                    stop(transport.notAuthorized(answer))
                    finish(1, .unfinished)
                    return nil
                case .rateLimited(let answer):
                    // Refused before processing: nothing was created by this attempt.
                    resource = try await book.record(resource.with(state: uncertain ? .sent : .planned, at: Date()))
                    lastReason = "429 RATE_LIMIT_EXCEEDED"
                    try await transport.waitAfterRateLimit(answer, attempt: attempt)
                case .refused(let answer):
                    // A promotional, introductory or win-back offer refused as a conflict may be the offer
                    // itself, made by hand or by a run whose answer was lost: one identical to the plan's
                    // is recorded as this resource (one with other terms stops the run, see ResourceFinder).
                    let mayExist = uncertain || (request.subject.offerKind != .offerCode && answer.status == 409)
                    if mayExist, let id = try await lookUp(request, resource, book: book, parentId: parentId) {
                        return id
                    }
                    var errors = AppleErrorDetail.parse(status: answer.status, body: answer.body)
                    for index in errors.indices {
                        let pointer = errors[index].source.flatMap { $0.hasPrefix("/") ? $0 : nil }
                        errors[index].campaignPath = CampaignPointer.campaignPath(pointer, subject: request.subject)
                    }
                    let text = errors.map(\.summary).joined(separator: "; ")
                    try await book.record(resource.with(state: .failed, error: text, at: Date()))
                    let refusal = ApplySummary.Refusal(resource: resource.label, errors: errors)
                    counters.withLockedValue { $0.summary.refused.append(refusal) }
                    events(.refused(refusal))
                    finish(1, .refused)
                    return nil
                case .notSent(let reason):
                    lastReason = reason
                    resource = try await book.record(resource.with(state: uncertain ? .sent : .planned, at: Date()))
                    try await transport.backOff(attempt)
                case .unknown(let reason):
                    lastReason = reason
                    uncertain = true
                    resource = try await book.record(resource.with(state: .sent, error: reason, at: Date()))
                    if let id = try await settleAndLookUp(request, resource, book: book, parentId: parentId) {
                        return id
                    }
                    try await transport.backOff(attempt)
                }
            }
            stop(
                .unreachable(
                    reason:
                        "\(transport.settings.attempts) attempts to create \(resource.label) failed, the last with: "
                        + lastReason))
            finish(1, .unfinished)
            return nil
        } catch let error as ConnectError {
            // A lookup could not finish, or the hourly limit is spent: the resource stays as
            // recorded (sent: looked up next time).
            stop(error)
            finish(1, .unfinished)
            return nil
        }
    }

    /// What one attempt of a create request means.
    enum CreateOutcome {
        /// `2xx` with a usable `data.id`.
        case created(String)
        case notAuthorized(ConnectTransport.Answer)
        case rateLimited(ConnectTransport.Answer)
        /// App Store Connect refused the request as it is (`400`, `404`, `409`, `413`, `415`,
        /// `422`): nothing was created.
        case refused(ConnectTransport.Answer)
        /// Certainly not processed (could not connect).
        case notSent(String)
        /// May have been processed: no answer, a `5xx`, a `2xx` without an id, or a status that
        /// does not say (`408`, a proxy's own).
        case unknown(String)
    }

    static let refusalStatuses: Set<Int> = [400, 404, 409, 413, 415, 422]

    static func classify(_ attempt: ConnectTransport.Attempt) -> CreateOutcome {
        switch attempt {
        case .notSent(let reason): return .notSent(reason)
        case .unknown(let reason): return .unknown(reason)
        case .answer(let answer):
            switch answer.status {
            case 200...299:
                guard let id = ConnectListPage.createdId(answer.body) else {
                    return .unknown("\(answer.status) without a usable data.id")
                }
                return .created(id)
            case 401, 403: return .notAuthorized(answer)
            case 429: return .rateLimited(answer)
            case let status where refusalStatuses.contains(status): return .refused(answer)
            default: return .unknown("\(answer.status) from App Store Connect")
            }
        }
    }

    /// After an unknown outcome: waits for a slow server to finish, then looks.
    private func settleAndLookUp(
        _ request: PlannedRequest, _ resource: ConnectResource, book: ResourceBook, parentId: String?
    ) async throws -> String? {
        let settle = min(transport.settings.requestTimeout, .seconds(10))
        events(.note("\(resource.label): outcome unknown: looking it up in App Store Connect before sending it again"))
        try await Task.sleep(for: settle)
        return try await lookUp(request, resource, book: book, parentId: parentId)
    }

    /// Looks the resource up; records and returns its id when found.
    private func lookUp(
        _ request: PlannedRequest, _ resource: ConnectResource, book: ResourceBook, parentId: String?
    ) async throws -> String? {
        let taken = await book.idsInUse(except: resource)
        guard let id = try await finder.find(request, campaign: campaign, offerId: parentId, taken: taken) else {
            return nil
        }
        try await book.record(resource.with(state: .created, id: id, at: Date()))
        events(.note("\(resource.label): found in App Store Connect (id \(id)); not sent again"))
        finish(1, .alreadyThere)
        return id
    }

    /// The body with the offer's placeholder replaced by its id.
    static func substitute(_ body: JSONValue, parentId: String?, request: PlannedRequest) -> JSONValue {
        guard let parentId, let parent = request.dependsOn.first else { return body }
        let placeholder = RequestPlanner.placeholder(for: parent)
        func walk(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text) where text == placeholder: return .string(parentId)
            case .object(let members): return .object(members.map { ($0.key, walk($0.value)) })
            case .array(let items): return .array(items.map(walk))
            default: return value
            }
        }
        return walk(body)
    }
}
