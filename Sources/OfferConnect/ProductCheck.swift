import OfferCodes
import OfferConnectAPI
import OfferJSON

/// The check `codes apply` makes before it creates anything: each product whose offers are still
/// to be created has, in App Store Connect, the product identifier the campaign gives it
/// (`GET /v1/subscriptions/{id}` or `GET /v2/inAppPurchases/{id}`, asking for `productId` only).
///
/// App Store Connect creates an offer on the product its id names and never sees the product
/// identifier, while an app, a promotional offer's signature and a Retention Messaging answer name
/// the product identifier. A campaign whose two disagree would create offers on one product and
/// sign them for another, and every purchase of them would fail: such a run creates and records
/// nothing (``ConnectError/productIdMismatch(paths:product:id:campaign:connect:)``). A product App Store
/// Connect does not have (`404`, another refusal, or an id that is not one) is left to App Store
/// Connect, which refuses its offers when they are created: they are recorded `failed` and the
/// other offers go on.
struct ProductCheck {
    /// One product the campaign names, with the campaign paths of its product identifier.
    struct Reference: Equatable {
        var product: PricePointQuery.Product
        var productId: String
        var paths: [String]
    }

    let transport: ConnectTransport

    /// The products of the offers `requests` create (their other resources are ignored), in
    /// campaign order: one reference per product and product identifier (two offers that name one
    /// product with two identifiers are two).
    static func references(in campaign: Campaign, for requests: [PlannedRequest]) -> [Reference] {
        var references: [Reference] = []
        var seen: Set<String> = []
        for request in requests where request.subject.kind == .offer {
            let index = request.subject.offerIndex
            let member = request.subject.offerKind.campaignMember
            let product: PricePointQuery.Product
            let productId: String
            let path: String
            switch request.subject.offerKind {
            case .offerCode:
                guard campaign.offers.indices.contains(index) else { continue }
                let reference = campaign.offers[index].product
                (product, productId, path) = (.init(reference), reference.productId, "$.\(member)[\(index)].product")
            case .promotionalOffer, .introductoryOffer, .winBackOffer:
                guard let terms = Self.terms(campaign, request.subject.offerKind, index) else { continue }
                (product, productId, path) = (
                    .subscription(id: terms.subscription.id), terms.subscription.productId,
                    "$.\(member)[\(index)].subscription"
                )
            }
            let fullPath = path + ".productId"
            if let at = references.firstIndex(where: { $0.product == product && $0.productId == productId }) {
                if seen.insert(fullPath).inserted { references[at].paths.append(fullPath) }
                continue
            }
            seen.insert(fullPath)
            references.append(Reference(product: product, productId: productId, paths: [fullPath]))
        }
        return references
    }

    private static func terms(_ campaign: Campaign, _ kind: CampaignOfferKind, _ index: Int)
        -> SubscriptionOfferTerms?
    {
        switch kind {
        case .offerCode: nil
        case .promotionalOffer:
            campaign.promotionalOffers.indices.contains(index) ? campaign.promotionalOffers[index].terms : nil
        case .introductoryOffer:
            campaign.introductoryOffers.indices.contains(index) ? campaign.introductoryOffers[index].terms : nil
        case .winBackOffer: campaign.winBackOffers.indices.contains(index) ? campaign.winBackOffers[index].terms : nil
        }
    }

    /// Checks the products of the `offers` for which `toCreate` holds, naming in a refusal every
    /// offer of the campaign that gives the product the same identifier (created ones too).
    func verify(
        campaign: Campaign, offers: [PlannedRequest], toCreate: (PlannedRequest) -> Bool
    ) async throws {
        let pending = Self.references(in: campaign, for: offers.filter(toCreate))
        try await verify(
            Self.references(in: campaign, for: offers).filter { reference in
                pending.contains { $0.product == reference.product && $0.productId == reference.productId }
            })
    }

    /// Reads each product's identifier and throws for the first in campaign order that differs
    /// from the campaign's. The first product is read alone, so that a key App Store Connect
    /// refuses costs one request, as at any other first request of a run; the others up to
    /// `--parallel` at once (the transport's ``ConnectTransport/Settings/parallel``), so a campaign
    /// of many products pays about one round trip per `parallel` products, not one per product.
    /// Once a product fails (its read or its check), no read of a later product starts; the reads
    /// of earlier ones end, and the first failure in campaign order is thrown, whatever order the
    /// answers came in.
    ///
    /// - Throws: ``ConnectError/productIdMismatch(paths:product:id:campaign:connect:)``;
    ///   ``ConnectError/unexpectedAnswer(request:what:)`` for an answer without a product
    ///   identifier; what ``ConnectTransport``'s GET throws; `CancellationError` when the task is
    ///   cancelled before every product was read.
    func verify(_ references: [Reference]) async throws {
        // Not one segment of a path: no such product (App Store Connect refuses its offers).
        let readable = references.filter { ConnectResource.isValidId($0.product.id) }
        guard let first = readable.first else { return }
        try await verifyOne(first)
        if let failure = await together(Array(readable.dropFirst())) { throw failure }
    }

    /// Reads one product and checks its answer.
    private func verifyOne(_ reference: Reference) async throws {
        try check(reference, try await read(reference))
    }

    /// Verifies `references` at most `parallel` at once, starting none after a failure (nor once the
    /// task is cancelled); the first failure in their order, if any.
    private func together(_ references: [Reference]) async -> (any Error)? {
        let parallel = max(1, transport.settings.parallel)
        return await withTaskGroup(of: (Int, (any Error)?).self) { group in
            var failures: [Int: any Error] = [:]
            var next = 0
            func startNext() {
                guard next < references.count, failures.isEmpty, !Task.isCancelled else { return }
                let index = next
                next += 1
                group.addTask {
                    do {
                        try await verifyOne(references[index])
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            for _ in 0..<parallel { startNext() }
            // Each read that ends makes room for the next one.
            while let (index, failure) = await group.next() {
                if let failure { failures[index] = failure }
                startNext()
            }
            if let first = failures.keys.min() { return failures[first] }
            return next < references.count ? CancellationError() : nil
        }
    }

    /// `GET` of one product, asking for its `productId` only.
    private func read(_ reference: Reference) async throws -> ConnectTransport.Answer {
        let collection = Self.collection(reference.product)
        let path = "/\(collection.version)/\(collection.name)/\(ConnectLister.percentEncode(reference.product.id))"
        return try await transport.get(
            path + ConnectLister.encode([("fields[\(collection.name)]", "productId")]), answerLimit: Self.answerLimit)
    }

    /// Judges one product's answer: a refusal is left to App Store Connect, a `200` must carry the
    /// campaign's product identifier.
    private func check(_ reference: Reference, _ answer: ConnectTransport.Answer) throws {
        // Not a product App Store Connect has, or an id it refuses: its offers are refused as they are created.
        if ApplyRun.refusalStatuses.contains(answer.status) { return }
        let id = reference.product.id
        let collection = Self.collection(reference.product)
        let request =
            "GET /\(collection.version)/\(collection.name)/{id} (\(reference.product.noun) \(ProblemText.quoted(id)))"
        guard answer.status == 200 else {
            let detail = AppleErrorDetail.parse(status: answer.status, body: answer.body).first?.summary
            throw ConnectError.unexpectedAnswer(request: request, what: detail ?? "\(answer.status)")
        }
        guard case .string(let found)? = (try? JSONValue.parse(answer.body))?["data"]?["attributes"]?["productId"]
        else {
            throw ConnectError.unexpectedAnswer(request: request, what: "no data.attributes.productId")
        }
        guard found == reference.productId else {
            throw ConnectError.productIdMismatch(
                paths: reference.paths, product: reference.product.noun, id: id,
                campaign: reference.productId, connect: found)
        }
    }

    /// The App Store Connect collection and API version of a product's kind.
    private static func collection(_ product: PricePointQuery.Product) -> (name: String, version: String) {
        switch product {
        case .subscription: ("subscriptions", "v1")
        case .inAppPurchase: ("inAppPurchases", "v2")
        }
    }

    /// The most bytes read of one product (its attributes alone are a few hundred).
    static let answerLimit = 1 << 20
}
