import Crypto
import OfferJSON

/// One App Store Connect create request of a campaign's plan.
///
/// Bodies that need the id of a resource created by an earlier request hold the placeholder
/// ``RequestPlanner/placeholder(for:)`` of that request (`<id of offer-1>`) and list the request
/// in ``dependsOn``; replace the placeholder with the id App Store Connect returned before sending.
public struct PlannedRequest: Sendable, Equatable {
    /// A stable id within the plan: `offer-1`, `offer-1-one-time-use-1`, `offer-1-custom-code-3`
    /// (numbers start at 1; custom codes are numbered across all of the offer's custom-code batches);
    /// `promotional-offer-1`, `introductory-offer-1-USA`, `win-back-offer-1`.
    public var id: String
    /// The HTTP method, `POST`.
    public var method: String
    /// The path under `https://api.appstoreconnect.apple.com`, for example `/v1/subscriptionOfferCodes`;
    /// its last segment is the App Store Connect resource type the request creates.
    public var path: String
    /// The name of Apple's request schema the body follows, for example `SubscriptionOfferCodeCreateRequest`.
    public var schema: String
    /// The ids of earlier requests whose returned resource id the body needs.
    public var dependsOn: [String]
    /// The JSON:API request body.
    package var body: JSONValue
    /// What the request creates: the resource kind, and its place in the campaign.
    public var subject: Subject

    /// What a request creates, and where the campaign defines it.
    public struct Subject: Sendable, Equatable {
        /// Which list of the campaign defines it: `offers` (offer codes, the default),
        /// `promotionalOffers`, `introductoryOffers` or `winBackOffers`.
        public var offerKind: CampaignOfferKind
        /// The offer's position (from 0) in its list (`offers`, `promotionalOffers`, …).
        public var offerIndex: Int
        /// Offer, one-time-use batch or custom code; ``ConnectResource/Kind/offer`` for a
        /// promotional, introductory or win-back offer.
        public var kind: ConnectResource.Kind
        /// The batch's position (from 0) in the offer's `oneTimeUseCodes` or `customCodes`; 0 for an
        /// offer; for an introductory offer, the position of its territory's entry in `prices`.
        public var batchIndex: Int
        /// The custom code, for a custom-code request.
        public var customCode: String?
        /// For a promotional, introductory or win-back offer: what identifies its resource in the
        /// campaign whatever the offer's position: the offer identifier of a promotional or win-back
        /// offer, `<subscription id>` of an introductory offer (with ``key`` naming its territory).
        /// `nil` for offer codes, which their reference name identifies.
        public var name: String?
        /// For an introductory offer: its territory and, when it has one, its start date
        /// (`USA`, `USA 2027-03-01`), so that a current and a future offer are two resources.
        public var territoryKey: String?
        /// For a promotional, introductory or win-back offer: its subscription's product identifier
        /// (`com.example.monthly`), what StoreKit and the signatures name it by.
        public var productId: String?

        public init(offerIndex: Int, kind: ConnectResource.Kind, batchIndex: Int = 0, customCode: String? = nil) {
            self.offerKind = .offerCode
            self.offerIndex = offerIndex
            self.kind = kind
            self.batchIndex = batchIndex
            self.customCode = customCode
        }

        /// A promotional, introductory or win-back offer's subject.
        public init(
            offerKind: CampaignOfferKind, offerIndex: Int, name: String, priceIndex: Int = 0,
            territoryKey: String? = nil, productId: String? = nil
        ) {
            self.offerKind = offerKind
            self.offerIndex = offerIndex
            kind = .offer
            batchIndex = priceIndex
            self.name = name
            self.territoryKey = territoryKey
            self.productId = productId
        }

        /// The resource's key within its offer (``ConnectResource/key``): for a promotional or
        /// win-back offer its subscription's ``productId`` (so that the ledger knows which
        /// product's offers it holds), for an introductory offer ``territoryKey``.
        public var key: String {
            switch offerKind {
            case .offerCode: ConnectResource.key(kind: kind, batchIndex: batchIndex, code: customCode ?? "")
            case .introductoryOffer: territoryKey ?? ""
            case .promotionalOffer, .winBackOffer: productId ?? ""
            }
        }
    }

    package init(
        id: String, method: String, path: String, schema: String, dependsOn: [String], body: JSONValue,
        subject: Subject
    ) {
        self.id = id
        self.method = method
        self.path = path
        self.schema = schema
        self.dependsOn = dependsOn
        self.body = body
        self.subject = subject
    }

    /// The request as JSON: `{"id", "method", "path", "schema", "dependsOn", "body"}`.
    package func jsonValue() -> JSONValue {
        .object([
            ("id", .string(id)),
            ("method", .string(method)),
            ("path", .string(path)),
            ("schema", .string(schema)),
            ("dependsOn", .array(dependsOn.map { .string($0) })),
            ("body", body),
        ])
    }

    /// The App Store Connect resource type the request creates (the last segment of ``path``), such
    /// as `subscriptionPromotionalOffers`.
    public var resourceType: String { String(path.split(separator: "/").last ?? "") }

    /// The body as compact JSON bytes, ready to send once its placeholders are replaced.
    public var bodyBytes: [UInt8] { body.serialized() }

    /// The SHA-256 of ``bodyBytes`` (with its placeholders), in lower-case hex: what the ledger
    /// records as ``ConnectResource/bodyDigest``.
    public var bodyDigest: String {
        Hex.string(SHA256.hash(data: bodyBytes))
    }
}
