import Foundation

/// One App Store Connect resource of a campaign's plan (an offer code, a one-time-use batch, a
/// custom code, or a promotional, introductory or win-back offer), as `offerkit codes apply`
/// records it in the ledger: what it is, how far sending it got, and the id App Store Connect
/// gave it.
///
/// A resource is identified within its campaign by its ``offerKind``, its offer, its ``Kind`` and
/// its ``key``, not by its place in the plan, so that a request id (`offer-2-custom-code-7`) is
/// only a label.
///
/// Its ``State`` moves `planned` → `sent` → `created` (or `failed`): `sent` is recorded, and on
/// disk, before the request leaves, so that a run that stops with the outcome unknown (a
/// timeout, a dropped connection, a killed process) is never followed by a blind second `POST`:
/// the next run first looks the resource up in App Store Connect. A `created` resource keeps its
/// id for good: the ledger refuses to change it.
public struct ConnectResource: Sendable, Equatable {
    /// Which of App Store Connect's offer-code resources it is.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// `subscriptionOfferCodes` or `inAppPurchaseOfferCodes`: the offer itself.
        case offer
        /// `…OfferCodeOneTimeUseCodes`: a batch of codes that Apple generates.
        case oneTimeUse
        /// `…OfferCodeCustomCodes`: one custom code.
        case customCode
    }

    /// How far `codes apply` got with the resource.
    public enum State: String, Sendable, Equatable, CaseIterable {
        /// In the plan; not sent yet (or sent and found missing afterwards).
        case planned
        /// Its create request was sent (or was about to be) and no answer was recorded: it may
        /// exist. The next run looks it up before sending anything.
        case sent
        /// App Store Connect created it: ``ConnectResource/id`` holds its id.
        case created
        /// App Store Connect refused it: ``ConnectResource/error`` says why. It does not exist;
        /// the next run sends it again.
        case failed
    }

    /// The campaign's name.
    public var campaign: String
    /// Which list of the campaign declares its offer: offer codes (`offers`), or a promotional,
    /// introductory or win-back offer.
    public var offerKind: CampaignOfferKind
    /// What identifies its offer within the campaign's list: an offer code's reference name, a
    /// promotional or win-back offer's offer identifier, an introductory offer's subscription id
    /// (``PlannedRequest/Subject/name``).
    public var offer: String
    /// Offer, one-time-use batch or custom code.
    public var kind: Kind
    /// The resource within its offer: `""` for the offer, the batch's position in the offer's
    /// `oneTimeUseCodes` (from 0, as text) for a one-time-use batch, the code upper-cased for a
    /// custom code (see ``key(kind:batchIndex:code:)``); for a promotional or win-back offer its
    /// subscription's product identifier, for an introductory offer its territory and start date
    /// (``PlannedRequest/Subject/key``).
    public var key: String
    /// The id of its request in the plan (`offer-1-custom-code-3`), for people.
    public var requestId: String
    /// App Store Connect's resource type, for example `subscriptionOfferCodes`.
    public var resourceType: String
    /// How far sending it got.
    public var state: State
    /// App Store Connect's id of the resource, once ``State/created``.
    public var id: String?
    /// The SHA-256 (hex) of the planned request body, with its placeholders: a created resource
    /// whose campaign now plans another body is reported instead of silently left different.
    public var bodyDigest: String
    /// What App Store Connect answered when it refused the resource (``State/failed``), or why
    /// the last attempt's outcome is unknown (``State/sent``).
    public var error: String?
    /// When the state last changed.
    public var updatedAt: Date

    public init(
        campaign: String, offerKind: CampaignOfferKind = .offerCode, offer: String, kind: Kind, key: String,
        requestId: String, resourceType: String, state: State, id: String? = nil, bodyDigest: String,
        error: String? = nil, updatedAt: Date
    ) {
        self.campaign = campaign
        self.offerKind = offerKind
        self.offer = offer
        self.kind = kind
        self.key = key
        self.requestId = requestId
        self.resourceType = resourceType
        self.state = state
        self.id = id
        self.bodyDigest = bodyDigest
        self.error = error
        self.updatedAt = LedgerTimestamp.milliseconds(updatedAt)
    }

    /// The ``key`` of a resource: `""` for the offer, the batch index for a one-time-use batch,
    /// the code upper-cased for a custom code (codes compare case-insensitively).
    public static func key(kind: Kind, batchIndex: Int = 0, code: String = "") -> String {
        switch kind {
        case .offer: ""
        case .oneTimeUse: String(batchIndex)
        case .customCode: code.uppercased()
        }
    }

    /// The resource `request` of the campaign's plan creates, as planned (``State/planned``) at `now`.
    package init(planned request: PlannedRequest, campaign: Campaign, now: Date) {
        let subject = request.subject
        guard subject.offerKind == .offerCode, subject.name == nil else {
            self.init(
                campaign: campaign.name, offerKind: subject.offerKind, offer: subject.name ?? "", kind: subject.kind,
                key: subject.key, requestId: request.id, resourceType: request.resourceType, state: .planned,
                bodyDigest: request.bodyDigest, updatedAt: now)
            return
        }
        let offer = campaign.offers[subject.offerIndex]
        self.init(
            campaign: campaign.name, offer: offer.referenceName, kind: subject.kind, key: subject.key,
            requestId: request.id, resourceType: OfferCodeAPI(offer.product.type).resourceType(subject.kind),
            state: .planned, bodyDigest: request.bodyDigest, updatedAt: now)
    }

    /// What identifies the resource within its campaign, as one text: offer kind, offer, kind and key.
    package var identity: String {
        Self.identity(offerKind: offerKind, offer: offer, kind: kind, key: key)
    }

    /// ``identity`` of the resource with these parts.
    package static func identity(offerKind: CampaignOfferKind, offer: String, kind: Kind, key: String) -> String {
        [offerKind.rawValue, offer, kind.rawValue, key].joined(separator: "\u{0}")
    }

    /// The longest App Store Connect id the ledger stores, in UTF-8 bytes.
    public static let maximumIdBytes = 256

    /// What an App Store Connect id OfferKit sends may be, in words: it becomes one segment of a URL
    /// path (`GET /v1/subscriptions/{id}`), so nothing in it may end or leave the segment.
    public static let idRule =
        "1 to \(maximumIdBytes) bytes, not only dots, without spaces, control characters, '/', '?' or '#'"

    /// Whether `id` can be an App Store Connect id (``idRule``): checked where a campaign or an
    /// option gives one, before it reaches a path.
    public static func isValidId(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maximumIdBytes && id.contains(where: { $0 != "." })
            && !id.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || $0 == " " || $0 == "/" || $0 == "?" || $0 == "#"
            })
    }

    /// The longest error text the ledger stores, in UTF-8 bytes: longer ones are cut.
    public static let maximumErrorBytes = 4_096

    /// The same resource in another state, with `id` and `error` as given.
    public func with(state: State, id: String? = nil, error: String? = nil, at date: Date) -> ConnectResource {
        var copy = self
        copy.state = state
        copy.id = id
        copy.error = error.map(Self.bounded)
        copy.updatedAt = LedgerTimestamp.milliseconds(date)
        return copy
    }

    /// What is wrong with the resource as the ledger would store it, or `nil`.
    package var problem: String? {
        if state == .created {
            guard let id, !id.isEmpty else { return "it is created but has no App Store Connect id" }
        }
        if let id {
            if id.isEmpty || id.utf8.count > Self.maximumIdBytes
                || id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
            {
                return "its App Store Connect id is not 1 to \(Self.maximumIdBytes) printable bytes without spaces"
            }
        }
        if state == .failed, error == nil { return "it failed but records no error" }
        if offerKind != .offerCode, kind != .offer {
            return "a \(offerKind.displayName) is one resource, not a \(kind.rawValue)"
        }
        if bodyDigest.utf8.count != 64
            || !bodyDigest.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        {
            return "its body digest is not 64 lower-case hex digits"
        }
        return nil
    }

    /// Why `new` may not replace `existing` (the record of the same resource), or `nil`: a
    /// created resource keeps its state, id and body digest.
    package static func conflict(replacing existing: ConnectResource?, with new: ConnectResource) -> String? {
        if let problem = new.problem { return problem }
        guard let existing, existing.state == .created else { return nil }
        if new.state != .created {
            return "it is recorded as created (id \(existing.id ?? "?")) and cannot become \(new.state.rawValue)"
        }
        if new.id != existing.id {
            return "it is recorded as created with id \(existing.id ?? "?"), not \(new.id ?? "?")"
        }
        if new.bodyDigest != existing.bodyDigest {
            if new.offerKind != .offerCode {
                return "it was created from another request body than the campaign now plans (codes apply creates, "
                    + "and never changes, a \(new.offerKind.displayName): restore the campaign as it was applied, or "
                    + "change the offer in App Store Connect)"
            }
            return "it was created from another request body than the campaign now plans (App Store Connect "
                + "cannot change an offer code once created: restore the campaign as it was applied)"
        }
        return nil
    }

    /// `text` cut to ``maximumErrorBytes`` UTF-8 bytes (on a character boundary).
    static func bounded(_ text: String) -> String {
        guard text.utf8.count > maximumErrorBytes else { return text }
        var cut = ""
        for character in text {
            if cut.utf8.count + character.utf8.count > maximumErrorBytes - 3 { break }
            cut.append(character)
        }
        return cut + "…"
    }

    /// "offer-1-custom-code-3 (custom code of offer "Spring")", "promotional-offer-1 (promotional
    /// offer "comeback_monthly_3")", for messages.
    public var label: String {
        let what: String
        switch kind {
        case .offer where offerKind == .introductoryOffer:
            return "\(requestId) (introductory offer of subscription \(ProblemText.quoted(offer)) in \(key))"
        case .offer: what = offerKind == .offerCode ? "offer" : offerKind.displayName
        case .oneTimeUse: what = "one-time-use batch oneTimeUseCodes[\(key)] of offer"
        case .customCode: what = "custom code of offer"
        }
        return "\(requestId) (\(what) \(ProblemText.quoted(offer)))"
    }
}
