import Foundation
import OfferCodes

/// A ledger's rows as they are stored, the same for every backend: what ``LedgerCopy`` reads from
/// one ledger (``LedgerSnapshotReader``) and writes to another (``LedgerBulkWriter``).
///
/// Row ids are kept as they are (`apps.id`, `batches.id`, `assignments.id`,
/// `connect_resources.id`), and so is the order in which campaigns and offers were first recorded
/// (`order`: SQLite's `rowid`, PostgreSQL's `seq`), so that `codes.batch_id`, `codes.app_id` and
/// `assignments.batch_id` stay valid and every list comes back in the order it was recorded.
package enum LedgerRow {
    /// An `apps` row.
    package struct App: Sendable, Equatable {
        package var id: Int64
        package var appAppleId: String

        package init(id: Int64, appAppleId: String) {
            self.id = id
            self.appAppleId = appAppleId
        }

        package init(_ values: [LedgerValue], path: String) throws {
            let row = StoredRow(values, table: "an apps row", path: path)
            self.init(id: try row.integer(0, "id"), appAppleId: try row.text(1, "app_apple_id"))
        }
    }

    /// A `campaigns` row.
    package struct Campaign: Sendable, Equatable {
        /// Its place in the order campaigns were first recorded (SQLite `rowid`, PostgreSQL `seq`).
        package var order: Int64
        package var name: String
        package var appId: Int64
        package var bundleId: String
        package var recordedAt: Timestamp

        package init(order: Int64, name: String, appId: Int64, bundleId: String, recordedAt: Timestamp) {
            self.order = order
            self.name = name
            self.appId = appId
            self.bundleId = bundleId
            self.recordedAt = recordedAt
        }

        /// Decodes `order, name, app_id, bundle_id, recorded_at` (`order` is SQLite's `rowid`,
        /// PostgreSQL's `seq`; the time as text).
        package init(_ values: [LedgerValue], path: String) throws {
            let row = StoredRow(values, table: "a campaigns row", path: path)
            self.init(
                order: try row.integer(0, "order"), name: try row.text(1, "name"), appId: try row.integer(2, "app_id"),
                bundleId: try row.text(3, "bundle_id"), recordedAt: try row.timestamp(4, "recorded_at"))
        }
    }

    /// An `offers` row.
    package struct Offer: Sendable, Equatable {
        /// Its place in the order offers were first recorded (SQLite `rowid`, PostgreSQL `seq`).
        package var order: Int64
        package var campaign: String
        package var name: String
        package var productType: String
        package var productAscId: String
        package var productId: String
        package var active: Bool
        /// How often the offer's batches or switch changed (claims read them again then).
        package var revision: Int64

        package init(
            order: Int64, campaign: String, name: String, productType: String, productAscId: String,
            productId: String, active: Bool, revision: Int64 = 0
        ) {
            self.order = order
            self.campaign = campaign
            self.name = name
            self.productType = productType
            self.productAscId = productAscId
            self.productId = productId
            self.active = active
            self.revision = revision
        }

        /// Decodes `order, campaign, name, product_type, product_asc_id, product_id, active, revision`.
        package init(_ values: [LedgerValue], path: String) throws {
            let row = StoredRow(values, table: "an offers row", path: path)
            self.init(
                order: try row.integer(0, "order"), campaign: try row.text(1, "campaign"),
                name: try row.text(2, "name"),
                productType: try row.text(3, "product_type"), productAscId: try row.text(4, "product_asc_id"),
                productId: try row.text(5, "product_id"), active: try row.boolean(6, "active"),
                revision: Int64(try row.integer(7, "revision", 0...Int.max)))
        }
    }

    /// A `batches` row, read through the ledger's checks (its checksum matched).
    package struct Batch: Sendable, Equatable {
        package var id: Int64
        package var batch: LedgerBatch
        /// How many codes the batch has in `codes`.
        package var storedCodes: Int
        /// The SHA-256 of those codes, in order (see ``BatchDigest``).
        package var codesDigest: [UInt8]
        package var recordedAt: Timestamp

        package init(id: Int64, batch: LedgerBatch, storedCodes: Int, codesDigest: [UInt8], recordedAt: Timestamp) {
            self.id = id
            self.batch = batch
            self.storedCodes = storedCodes
            self.codesDigest = codesDigest
            self.recordedAt = recordedAt
        }

        /// The row's checksum (see ``BatchDigest/checksum(of:storedCodes:codesDigest:)``).
        package var checksum: [UInt8] {
            BatchDigest.checksum(of: batch, storedCodes: storedCodes, codesDigest: codesDigest)
        }
    }

    /// A `codes` row (of the batch it is streamed with).
    package struct Code: Sendable, Equatable {
        /// The code's position in its batch: 0, 1, …
        package var seq: Int64
        /// The app of the batch's campaign.
        package var appId: Int64
        /// The code upper-cased, as the ledger compares codes.
        package var key: String
        /// The code as issued when it differs from ``key`` (stored as `NULL` otherwise).
        package var code: String?

        /// The row's digest (``CodeDigest``).
        package var digest: [UInt8]

        package init(seq: Int64, appId: Int64, key: String, code: String?, digest: [UInt8]) {
            self.seq = seq
            self.appId = appId
            self.key = key
            self.code = code
            self.digest = digest
        }

        /// The code as issued.
        package var issued: String { code ?? key }

        /// Decodes `seq, app_id, code_key, code, digest`.
        package init(_ values: [LedgerValue], path: String) throws {
            let row = StoredRow(values, table: "a codes row", path: path)
            self.init(
                seq: try row.integer(0, "seq"), appId: try row.integer(1, "app_id"), key: try row.text(2, "code_key"),
                code: try row.optionalText(3, "code"), digest: try row.blob(4, "digest", count: CodeDigest.length))
        }
    }

    /// An `assignments` row.
    package struct Assignment: Sendable, Equatable {
        package var id: Int64
        package var batchId: Int64
        package var seq: Int64
        package var campaign: String
        package var offer: String
        package var environment: CodeEnvironment
        package var recipient: String
        package var shared: Bool
        package var channel: AssignmentChannel
        package var assignedAt: Timestamp

        package init(
            id: Int64, batchId: Int64, seq: Int64, campaign: String, offer: String, environment: CodeEnvironment,
            recipient: String, shared: Bool, channel: AssignmentChannel, assignedAt: Timestamp
        ) {
            self.id = id
            self.batchId = batchId
            self.seq = seq
            self.campaign = campaign
            self.offer = offer
            self.environment = environment
            self.recipient = recipient
            self.shared = shared
            self.channel = channel
            self.assignedAt = assignedAt
        }

        /// Decodes `id, batch_id, seq, campaign, offer, environment, recipient, shared, channel,
        /// assigned_at` (`shared` as 0 or 1, the time as text).
        package init(_ values: [LedgerValue], path: String) throws {
            let row = StoredRow(values, table: "an assignments row", path: path)
            guard let environment = CodeEnvironment(rawValue: try row.text(5, "environment")) else {
                throw row.corrupt("environment", "PRODUCTION or SANDBOX")
            }
            guard let channel = AssignmentChannel(rawValue: try row.text(8, "channel")) else {
                throw row.corrupt("channel", "export or claim")
            }
            self.init(
                id: try row.integer(0, "id"), batchId: try row.integer(1, "batch_id"), seq: try row.integer(2, "seq"),
                campaign: try row.text(3, "campaign"), offer: try row.text(4, "offer"), environment: environment,
                recipient: try row.text(6, "recipient"), shared: try row.boolean(7, "shared"), channel: channel,
                assignedAt: try row.timestamp(9, "assigned_at"))
        }
    }

    /// A `connect_resources` row: an App Store Connect resource `codes apply` recorded
    /// (``OfferCodes/ConnectResource``), with its id, which keeps the plan's order.
    package struct ConnectResource: Sendable, Equatable {
        package var id: Int64
        package var campaign: String
        package var offerKind: CampaignOfferKind
        package var offer: String
        package var kind: OfferCodes.ConnectResource.Kind
        package var key: String
        package var requestId: String
        package var resourceType: String
        package var state: OfferCodes.ConnectResource.State
        /// App Store Connect's id (`asc_id`).
        package var ascId: String?
        package var bodyDigest: String
        package var error: String?
        package var updatedAt: Timestamp

        package init(
            id: Int64, campaign: String, offerKind: CampaignOfferKind, offer: String,
            kind: OfferCodes.ConnectResource.Kind, key: String, requestId: String, resourceType: String,
            state: OfferCodes.ConnectResource.State, ascId: String?, bodyDigest: String, error: String?,
            updatedAt: Timestamp
        ) {
            self.id = id
            self.campaign = campaign
            self.offerKind = offerKind
            self.offer = offer
            self.kind = kind
            self.key = key
            self.requestId = requestId
            self.resourceType = resourceType
            self.state = state
            self.ascId = ascId
            self.bodyDigest = bodyDigest
            self.error = error
            self.updatedAt = updatedAt
        }

        /// Decodes `id, campaign, offer, kind, key, request_id, resource_type, state, asc_id,
        /// body_digest, error, updated_at, offer_kind` (the time as text).
        package init(_ values: [LedgerValue], path: String) throws {
            let row = StoredRow(values, table: "a connect_resources row", path: path)
            guard let offerKind = CampaignOfferKind(rawValue: try row.text(12, "offer_kind")) else {
                throw row.corrupt("offer_kind", "offerCode, promotionalOffer, introductoryOffer or winBackOffer")
            }
            guard let kind = OfferCodes.ConnectResource.Kind(rawValue: try row.text(3, "kind")) else {
                throw row.corrupt("kind", "offer, oneTimeUse or customCode")
            }
            guard let state = OfferCodes.ConnectResource.State(rawValue: try row.text(7, "state")) else {
                throw row.corrupt("state", "planned, sent, created or failed")
            }
            self.init(
                id: try row.integer(0, "id"), campaign: try row.text(1, "campaign"), offerKind: offerKind,
                offer: try row.text(2, "offer"), kind: kind, key: try row.text(4, "key"),
                requestId: try row.text(5, "request_id"),
                resourceType: try row.text(6, "resource_type"), state: state, ascId: try row.optionalText(8, "asc_id"),
                bodyDigest: try row.text(9, "body_digest"), error: try row.optionalText(10, "error"),
                updatedAt: try row.timestamp(11, "updated_at"))
        }

        /// ``resource``, refused as damage when it breaks ``OfferCodes/ConnectResource``'s rules.
        package func checkedResource(path: String) throws -> OfferCodes.ConnectResource {
            let resource = self.resource
            if let problem = resource.problem {
                throw LedgerError.corrupt(
                    path: path, reason: "a recorded App Store Connect resource is damaged: \(problem)")
            }
            return resource
        }

        /// The resource as the ledger's reads return it (its time to the millisecond), so that
        /// the copy checks it by the same rules (``OfferCodes/ConnectResource/problem``).
        package var resource: OfferCodes.ConnectResource {
            OfferCodes.ConnectResource(
                campaign: campaign, offerKind: offerKind, offer: offer, kind: kind, key: key, requestId: requestId,
                resourceType: resourceType, state: state, id: ascId, bodyDigest: bodyDigest, error: error,
                updatedAt: updatedAt.date)
        }
    }

    /// A `price_points` row: a customer price `codes plan` or `codes apply` resolved to its
    /// App Store Connect price point (``OfferCodes/ResolvedPrice``), with its id, which keeps the
    /// order recorded.
    package struct PricePoint: Sendable, Equatable {
        package var id: Int64
        package var campaign: String
        package var price: ResolvedPrice
        package var recordedAt: Timestamp

        package init(id: Int64, campaign: String, price: ResolvedPrice, recordedAt: Timestamp) {
            self.id = id
            self.campaign = campaign
            self.price = price
            self.recordedAt = recordedAt
        }

        /// The columns it decodes, in order.
        package static let columns =
            "id, campaign, product_type, product_id, territory, customer_price, price_point, recorded_at"

        /// Decodes ``columns`` (the time as text); a value OfferKit does not write (an unknown product
        /// type, a customer price that is not one, an empty id) is damage.
        package init(_ values: [LedgerValue], path: String) throws {
            let row = StoredRow(values, table: "a price_points row", path: path)
            let productId = try row.text(3, "product_id")
            guard !productId.isEmpty,
                let product = PricePointQuery.Product(type: try row.text(2, "product_type"), id: productId)
            else {
                throw row.corrupt("product_type and product_id", "subscription or inAppPurchase, and an id")
            }
            let territory = try row.text(4, "territory")
            guard territory.utf8.count == 3, territory.utf8.allSatisfy({ (65...90).contains($0) }) else {
                throw row.corrupt("territory", "3 capital letters")
            }
            let customerPrice = try row.text(5, "customer_price")
            guard CustomerPrice(customerPrice)?.normalized == customerPrice else {
                throw row.corrupt("customer_price", "a customer price without leading or trailing zeros")
            }
            let pricePoint = try row.text(6, "price_point")
            guard !pricePoint.isEmpty else { throw row.corrupt("price_point", "a price point id") }
            self.init(
                id: try row.integer(0, "id"), campaign: try row.text(1, "campaign"),
                price: ResolvedPrice(
                    query: PricePointQuery(product: product, territory: territory), customerPrice: customerPrice,
                    pricePoint: pricePoint),
                recordedAt: try row.timestamp(7, "recorded_at"))
        }
    }

    /// A time as a ledger stores it, exactly: ISO 8601 in UTC, `2027-01-05T09:30:00.125Z` with 3
    /// fraction digits (SQLite's milliseconds) or 6 (PostgreSQL's microseconds).
    ///
    /// Kept as text rather than a `Date`, whose binary fraction would not carry every microsecond
    /// back exactly.
    package struct Timestamp: Sendable, Equatable, CustomStringConvertible {
        package let text: String
        /// The time, to the millisecond (as ``LedgerTimestamp`` reads it).
        package let date: Date

        /// `text` if it is written as above (and names a real time), else `nil`.
        package init?(_ text: String) {
            let bytes = Array(text.utf8)
            guard bytes.count == 24 || bytes.count == 27, bytes.last == UInt8(ascii: "Z"),
                Self.matches(bytes), let date = LedgerTimestamp.date(text)
            else { return nil }
            self.text = text
            self.date = date
        }

        package var description: String { text }

        /// The text an SQLite ledger stores: microseconds that are whole milliseconds are written
        /// with 3 digits, as SQLite's `strftime('%f')` writes them; others keep all 6, which the
        /// SQLite ledger reads as well.
        package var sqliteText: String {
            guard text.utf8.count == 27, text.hasSuffix("000Z") else { return text }
            return String(text.dropLast(4)) + "Z"
        }

        /// `YYYY-MM-DDTHH:MM:SS.fff[fff]Z`, digits where digits belong.
        private static func matches(_ bytes: [UInt8]) -> Bool {
            let pattern = Array("0000-00-00T00:00:00.000000Z".utf8)
            for (index, byte) in bytes.dropLast().enumerated() {
                let expected = pattern[index]
                if expected == UInt8(ascii: "0") {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
                } else if byte != expected {
                    return false
                }
            }
            return true
        }
    }

    /// How many rows of each kind a ledger holds.
    package struct Counts: Sendable, Equatable {
        package var apps = 0
        package var campaigns = 0
        package var offers = 0
        package var batches = 0
        /// The codes of each batch, by batch id (batches without codes are absent).
        package var codesPerBatch: [Int64: Int] = [:]
        package var assignments = 0
        package var connectResources = 0
        package var pricePoints = 0

        package init() {}

        /// All codes.
        package var codes: Int { codesPerBatch.values.reduce(0, +) }

        /// Whether nothing is recorded.
        package var isEmpty: Bool {
            apps == 0 && campaigns == 0 && offers == 0 && batches == 0 && codesPerBatch.isEmpty && assignments == 0
                && connectResources == 0 && pricePoints == 0
        }
    }
}
