import Foundation
import OfferCodes
import OfferJSON
import Testing

/// Campaigns for tests, as models and as campaign-format JSON: a valid offer for every product
/// type and payment mode App Store Connect allows, and ways to change one member to make it fail.
///
/// Dates are absolute and counted from ``today`` (a fixed day), so that results do not depend on
/// the clock.
enum CampaignFixtures {
    /// The day the fixtures are valid on: 2027-03-15, in 2027-Q1.
    static let today = CalendarDate(year: 2027, month: 3, day: 15)!
    static let campaignName = "spring-2027"
    static let app = CampaignApp(bundleId: "com.example.offerkit.demo", appAppleId: "1234567890")

    /// The product type and payment mode pairs App Store Connect allows (six of them).
    static let allowedCombinations: [(ProductType, PaymentMode)] = ProductType.allCases.flatMap { type in
        type.allowedPaymentModes.map { (type, $0) }
    }

    /// The pairs App Store Connect rejects (ten of them).
    static let disallowedCombinations: [(ProductType, PaymentMode)] = ProductType.allCases.flatMap { type in
        PaymentMode.allCases.filter { !type.allowedPaymentModes.contains($0) }.map { (type, $0) }
    }

    /// The day `days` days after `date` (before it when negative), computed with Foundation's
    /// Gregorian calendar in UTC (independently of the library).
    static func day(_ days: Int, after date: CalendarDate = today) -> CalendarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
        let moved = calendar.date(byAdding: .day, value: days, to: start)!
        let parts = calendar.dateComponents([.year, .month, .day], from: moved)
        return CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// A product of `type` with an id and product identifier of its own.
    static func product(_ type: ProductType) -> ProductReference {
        switch type {
        case .autoRenewableSubscription:
            ProductReference(id: "6450000001", productId: "com.example.offerkit.monthly", type: type)
        case .nonRenewingSubscription:
            ProductReference(id: "6450000011", productId: "com.example.offerkit.seasonpass", type: type)
        case .consumable: ProductReference(id: "6450000009", productId: "com.example.offerkit.gems100", type: type)
        case .nonConsumable: ProductReference(id: "6450000010", productId: "com.example.offerkit.pro", type: type)
        }
    }

    /// A valid offer for `type` and `mode` (an allowed pair), with a one-time-use batch, a given
    /// custom code and a generated batch. Reference name and custom code are unique per pair,
    /// so offers for different pairs can share a campaign.
    static func offer(type: ProductType, mode: PaymentMode, referenceName: String? = nil) -> OfferDefinition {
        let auto = type.isAutoRenewable
        let prices: [TerritoryPrice] =
            switch mode {
            case .freeTrial:
                [TerritoryPrice(territory: "USA", pricePoint: nil), TerritoryPrice(territory: "JPN", pricePoint: nil)]
            case .payAsYouGo, .payUpFront:
                [
                    TerritoryPrice(territory: "USA", pricePoint: "USA-10002"),
                    TerritoryPrice(territory: "JPN", pricePoint: "JPN-10005"),
                ]
            case .oneTime:
                [
                    TerritoryPrice(territory: "USA", pricePoint: nil),
                    TerritoryPrice(territory: "JPN", pricePoint: "JPN-10001"),
                ]
            }
        let tag = tag(type, mode)
        return OfferDefinition(
            referenceName: referenceName ?? "\(type.displayName) \(mode.rawValue)",
            product: product(type), paymentMode: mode,
            duration: auto ? (mode == .payUpFront ? .sixMonths : mode == .freeTrial ? .oneWeek : .oneMonth) : nil,
            numberOfPeriods: auto ? (mode == .payAsYouGo ? 3 : 1) : nil,
            customerEligibilities: auto ? [.new, .expired] : [.nonSpender, .churnedSpender],
            offerEligibility: auto ? .stackWithIntroOffers : nil,
            autoRenewEnabled: auto && mode == .payAsYouGo ? true : nil,
            targetSubscriptionPlanType: auto && mode == .payAsYouGo ? .monthly : nil,
            prices: prices,
            oneTimeUseCodes: [OneTimeUseBatch(count: 100, expirationDate: day(90), environment: .production)],
            customCodes: [
                CustomCodeBatch(source: .given(["\(tag)2027"]), redemptionLimit: 500, expirationDate: day(60)),
                CustomCodeBatch(
                    source: .generated(CodeGenerationSpec(count: 50, prefix: tag, length: 8)), redemptionLimit: 1),
            ])
    }

    /// A campaign of `offers` for ``app``.
    static func campaign(offers: [OfferDefinition], name: String = campaignName) -> Campaign {
        Campaign(name: name, app: app, offers: offers)
    }

    /// A campaign with one offer for every allowed pair.
    static var everyCombination: Campaign {
        campaign(offers: allowedCombinations.map { offer(type: $0.0, mode: $0.1) })
    }

    // MARK: JSON

    /// ``offer(type:mode:referenceName:)`` in the campaign format, with `changes` applied
    /// (see ``changing(_:_:)``).
    static func offerJSON(
        type: ProductType, mode: PaymentMode, referenceName: String? = nil,
        changing changes: KeyValuePairs<String, JSONValue?> = [:]
    ) -> JSONValue {
        changing(json(offer(type: type, mode: mode, referenceName: referenceName)), changes)
    }

    /// A campaign document with `offers`, with `changes` applied to its top level.
    static func campaignJSON(
        offers: [JSONValue], changing changes: KeyValuePairs<String, JSONValue?> = [:]
    ) -> JSONValue {
        changing(changing(json(campaign(offers: [])), ["offers": .array(offers)]), changes)
    }

    /// A campaign document with one offer.
    static func campaignJSON(offer: JSONValue) -> JSONValue { campaignJSON(offers: [offer]) }

    /// An object with members replaced in place (the value `nil` removes the member) and new
    /// members appended, in the order given.
    static func changing(_ value: JSONValue, _ changes: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        guard case .object(var members) = value else { return value }
        for (key, newValue) in changes {
            let index = members.firstIndex(where: { $0.key == key })
            switch (index, newValue) {
            case (let index?, let newValue?): members[index].value = newValue
            case (let index?, nil): members.remove(at: index)
            case (nil, let newValue?): members.append((key, newValue))
            case (nil, nil): break
            }
        }
        return .object(members)
    }

    /// The campaign format for a model (dates written absolute).
    static func json(_ campaign: Campaign) -> JSONValue {
        .object([
            ("name", .string(campaign.name)),
            (
                "app",
                .object([
                    ("bundleId", .string(campaign.app.bundleId)), ("appAppleId", .string(campaign.app.appAppleId)),
                ])
            ),
            ("offers", .array(campaign.offers.map(json))),
        ])
    }

    /// The campaign format for one offer model.
    static func json(_ offer: OfferDefinition) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("referenceName", .string(offer.referenceName)),
            (
                "product",
                .object([
                    ("id", .string(offer.product.id)), ("productId", .string(offer.product.productId)),
                    ("type", .string(offer.product.type.rawValue)),
                ])
            ),
            ("paymentMode", .string(offer.paymentMode.rawValue)),
        ]
        if !offer.displayName.isEmpty {
            let titles = offer.displayName.titles.sorted { $0.key < $1.key }
            members.insert(("displayName", .object(titles.map { ($0.key, .string($0.value)) })), at: 1)
        }
        if let duration = offer.duration { members.append(("duration", .string(duration.rawValue))) }
        if let periods = offer.numberOfPeriods { members.append(("numberOfPeriods", .integer(periods))) }
        members.append(("customerEligibilities", .array(offer.customerEligibilities.map { .string($0.rawValue) })))
        if let eligibility = offer.offerEligibility {
            members.append(("offerEligibility", .string(eligibility.rawValue)))
        }
        if let enabled = offer.autoRenewEnabled { members.append(("autoRenewEnabled", .bool(enabled))) }
        if let plan = offer.targetSubscriptionPlanType {
            members.append(("targetSubscriptionPlanType", .string(plan.rawValue)))
        }
        members.append(("prices", .array(offer.prices.map(json))))
        if !offer.oneTimeUseCodes.isEmpty {
            members.append(("oneTimeUseCodes", .array(offer.oneTimeUseCodes.map(json))))
        }
        if !offer.customCodes.isEmpty { members.append(("customCodes", .array(offer.customCodes.map(json)))) }
        return .object(members)
    }

    static func json(_ price: TerritoryPrice) -> JSONValue {
        let value: (key: String, value: JSONValue) =
            price.pricePoint.map { (key: "pricePoint", value: .string($0)) } ?? (key: "free", value: .bool(true))
        return .object([(key: "territory", value: .string(price.territory)), value])
    }

    static func json(_ batch: OneTimeUseBatch) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("count", .integer(batch.count)), ("expirationDate", .string(batch.expirationDate.description)),
        ]
        if let environment = batch.environment { members.append(("environment", .string(environment.rawValue))) }
        return .object(members)
    }

    static func json(_ batch: CustomCodeBatch) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        switch batch.source {
        case .given(let codes): members.append(("codes", .array(codes.map { .string($0) })))
        case .generated(let spec):
            members.append(
                (
                    "generate",
                    .object([
                        ("count", .integer(spec.count)), ("prefix", .string(spec.prefix)),
                        ("length", .integer(spec.length)),
                        ("alphabet", .string(spec.alphabet)),
                    ])
                ))
        }
        members.append(("redemptionLimit", .integer(batch.redemptionLimit)))
        if let date = batch.expirationDate { members.append(("expirationDate", .string(date.description))) }
        return .object(members)
    }

    /// A price entry.
    static func priceJSON(_ territory: String, pricePoint: String? = nil) -> JSONValue {
        json(TerritoryPrice(territory: territory, pricePoint: pricePoint))
    }

    /// Pretty-printed bytes of a document.
    static func bytes(_ document: JSONValue) -> [UInt8] { document.serialized(pretty: true) }

    // MARK: Validation

    /// Validates a document on ``today``.
    static func validate(_ document: JSONValue) throws -> ValidationReport {
        try CampaignValidator(today: today).validate(json: bytes(document))
    }

    /// ``validate(_:)`` against what `ledger` holds.
    static func validate(_ document: JSONValue, against ledger: any AppCodeHistory) async throws -> ValidationReport {
        try await CampaignValidator(today: today).validate(json: bytes(document), against: ledger)
    }

    /// The problems of a one-offer campaign.
    static func problems(ofOffer offer: JSONValue) throws -> [ValidationProblem] {
        try validate(campaignJSON(offer: offer)).problems
    }

    /// ``problems(ofOffer:)`` against what `ledger` holds.
    static func problems(ofOffer offer: JSONValue, against ledger: any AppCodeHistory) async throws
        -> [ValidationProblem]
    {
        try await validate(campaignJSON(offer: offer), against: ledger).problems
    }

    /// Expects exactly one problem, with `rule` at `path`, whose message contains each of
    /// `message` and whose allowed text contains `allowed`; returns it.
    @discardableResult
    static func expectOnly(
        _ problems: [ValidationProblem], rule: String, path: String, message: [String] = [], allowed: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ValidationProblem? {
        #expect(problems.count == 1, "\(problems)", sourceLocation: sourceLocation)
        guard let problem = problems.first else { return nil }
        #expect(problem.rule == rule, "\(problem)", sourceLocation: sourceLocation)
        #expect(problem.path == path, "\(problem)", sourceLocation: sourceLocation)
        for part in message {
            #expect(problem.message.contains(part), "\(problem.message) lacks \(part)", sourceLocation: sourceLocation)
        }
        if let allowed {
            #expect(problem.allowed?.contains(allowed) == true, "\(problem)", sourceLocation: sourceLocation)
        }
        return problem
    }

    private static func tag(_ type: ProductType, _ mode: PaymentMode) -> String {
        let typeTag =
            switch type {
            case .autoRenewableSubscription: "AR"
            case .nonRenewingSubscription: "NR"
            case .consumable: "CO"
            case .nonConsumable: "NC"
            }
        let modeTag =
            switch mode {
            case .freeTrial: "FT"
            case .payAsYouGo: "PG"
            case .payUpFront: "PU"
            case .oneTime: "OT"
            }
        return typeTag + modeTag
    }
}

/// A test double of what validation reads from a ledger (``AppCodeHistory``), from fixed entries.
/// It is not a ledger: the ledger has its own tests.
struct CampaignFixtureLedger: AppCodeHistory {
    /// What one campaign of an app holds.
    struct Entry: Sendable {
        var campaign: String
        var appAppleId: String = CampaignFixtures.app.appAppleId
        var activeOffers: [String] = []
        var quarter: String = CampaignFixtures.today.quarter
        var productionCodes = 0
        var sandboxCodes = 0
        var codes: [String] = []
    }

    /// Thrown by every method when ``failing``.
    struct Unsupported: Error, Equatable {}

    var entries: [Entry] = []
    /// Makes every method throw, to check that validation passes ledger errors on.
    var failing = false

    func summary(appAppleId: String, quarter: String, excludingCampaign: String) async throws -> LedgerSummary {
        if failing { throw Unsupported() }
        let others = entries.filter { $0.appAppleId == appAppleId && $0.campaign != excludingCampaign }
        let inQuarter = others.filter { $0.quarter == quarter }
        return LedgerSummary(
            activeOfferNames: others.flatMap(\.activeOffers),
            productionCodes: inQuarter.reduce(0) { $0 + $1.productionCodes },
            sandboxCodes: inQuarter.reduce(0) { $0 + $1.sandboxCodes })
    }

    func issuedCodes(appAppleId: String, among codes: [String], excludingCampaign: String) async throws
        -> Set<String>
    {
        if failing { throw Unsupported() }
        let issued = Set(
            entries.filter { $0.appAppleId == appAppleId && $0.campaign != excludingCampaign }
                .flatMap(\.codes).map { $0.uppercased() })
        return Set(codes.map { $0.uppercased() }).intersection(issued)
    }
}
