import Foundation
import OfferCodes
import OfferJSON
import OfferSigning

/// Schemas, answers and problems of the operations that use the service's code ledger: a claim
/// (``OperationContract/claimCode``) and a campaign's status (``OperationContract/campaignStatus``).
///
/// The answers are written by the offer-code library's encoders, ``CodeClaimReport`` and
/// `CampaignStatusReport` (OfferLedger), which `offerkit codes claim --format json` and `offerkit codes status
/// --format json` print too: one set of members, so one client reads both.
package enum CodeSchemas {
    // MARK: Request members

    /// The longest campaign name (the campaign rules allow 64 characters).
    package static let maximumCampaignNameLength = CampaignLimits.maximumNameLength
    /// The longest offer name taken: reference names are at most 64 characters (grapheme clusters,
    /// which JSON Schema does not count), so the bound in Unicode scalars is generous.
    package static let maximumOfferNameLength = 256

    package static let campaignName = JSONSchema.string(
        StringRules(format: .campaignName, minLength: 1, maxLength: maximumCampaignNameLength),
        description: """
            The campaign's `name`, as `offerkit codes generate` or `import` recorded it in the ledger: 1-\
            \(maximumCampaignNameLength) letters, digits, `-`, `_` and `.`, the campaign file's rule (checked before \
            the ledger is read).
            """,
        example: "spring-2027")
    package static let offerName = JSONSchema.string(
        StringRules(minLength: 1, maxLength: maximumOfferNameLength),
        description: "The offer's `referenceName` in the campaign.", example: "Spring half price, 3 months")
    package static let recipient = JSONSchema.string(
        StringRules(format: .recipientId, minLength: 1, maxLength: RecipientId.maximumBytes),
        description: """
            Who receives the code: an opaque id you choose (a user id, an email hash, a name), compared byte for \
            byte; 1-\(RecipientId.maximumBytes) UTF-8 bytes without control characters. Claiming again with the \
            same id gives the same code.
            """,
        example: "user-8412")
    package static let environment = JSONSchema.enumeration(
        CodeEnvironment.spellings,
        description: """
            Which codes: `PRODUCTION` (the default) or `SANDBOX` (they work only in the sandbox), App Store \
            Connect's names, read in any case (`sandbox` is `SANDBOX`).
            """)

    // MARK: Answers

    /// The answer of a claim: the code, its redemption link and where it comes from.
    package static let claim = JSONSchema.object(
        [
            .init("code", .string(StringRules(minLength: 1), description: "The offer code to redeem.")),
            .init(
                "url",
                .string(
                    StringRules(minLength: 1),
                    description: """
                        The App Store link that opens the redemption sheet with the code filled in: \
                        `https://apps.apple.com/redeem?ctx=offercodes&id=<appAppleId>&code=<code>`.
                        """)),
            .init("campaign", .string(StringRules(minLength: 1), description: "The campaign's name.")),
            .init("offer", .string(StringRules(minLength: 1), description: "The offer's `referenceName`.")),
            .init("recipient", .string(StringRules(minLength: 1), description: "The recipient id, as sent.")),
            .init("kind", batchKind),
            .init("batch", batchNumber),
            .init(
                "redemptionLimit",
                .integer(
                    minimum: 1, description: "How many times the code can be redeemed: 1 for a personal code.")),
            .init(
                "shared",
                .boolean(
                    description: """
                        Whether the code is shared (redemption limit above 1): the campaign's code, handed out to \
                        as many recipients as its redemption limit, not this recipient's own.
                        """)),
            .init("expirationDate", expirationDate),
            .init("environment", codeEnvironment),
            .init(
                "channel",
                .enumeration(
                    AssignmentChannel.allCases.map(\.rawValue),
                    description: """
                        How the code was first handed out to the recipient: `claim` (this endpoint or \
                        `offerkit codes claim`) or `export` (`offerkit codes export --recipients`).
                        """)),
            .init(
                "assignedAt",
                .string(
                    StringRules(minLength: 1),
                    description: "When the code was first handed out to the recipient: ISO 8601 in UTC.",
                    example: "2027-03-15T09:30:00.125Z")),
            .init(
                "new",
                .boolean(
                    description: """
                        `true` when this request handed the code out; `false` when the recipient already had it \
                        (a retry gives the same code).
                        """)),
        ], description: "The code handed out to the recipient."
    ).example(CodeClaimReport(exampleClaim, appAppleId: exampleAppAppleId).json).named("CodeClaim")

    /// A campaign's status: per offer and batch, what the ledger holds and how much of it was
    /// handed out, with totals per offer and environment; the app's usage of this quarter's limits;
    /// and what `offerkit codes apply` did in App Store Connect.
    package static let status = JSONSchema.object(
        [
            .init("campaign", .string(StringRules(minLength: 1), description: "The campaign's name.")),
            .init("appAppleId", .string(StringRules(minLength: 1), description: "The App Apple ID of its app.")),
            .init(
                "today",
                .string(
                    StringRules(format: .date),
                    description: "The day (UTC) the status was taken: batches that expired before it are marked.")),
            .init(
                "offers",
                .array(
                    of: JSONSchema.object(
                        [
                            .init(
                                "offer", .string(StringRules(minLength: 1), description: "The offer's `referenceName`.")
                            ),
                            .init(
                                "active",
                                .boolean(description: "App Store Connect's `active` switch, as the ledger knows it.")),
                            .init(
                                "batches",
                                .array(of: statusBatch, description: "Its batches, in the order they were recorded.")),
                            .init(
                                "totals",
                                .array(
                                    of: statusTotals,
                                    description: "One entry per environment the offer has batches in, PRODUCTION first."
                                )),
                        ], description: "One offer of the campaign."),
                    description: "The campaign's offers, in the order they were first recorded.")),
            .init("usage", usage),
            .init(
                "appStoreConnect",
                .array(
                    of: connectResource,
                    description: """
                        The campaign's App Store Connect resources, as `offerkit codes apply` recorded them, in the \
                        order of its plan; empty until it runs.
                        """)),
        ], description: "What the ledger holds for a campaign and how much of it was handed out."
    ).example(exampleStatus).named("CampaignStatus")

    private static let codeCount = JSONSchema.integer(
        minimum: 0,
        description: "The codes recorded: custom codes, or the number of one-time-use codes asked of Apple.")
    private static let storedCodes = JSONSchema.integer(
        minimum: 0,
        description: """
            The codes the ledger holds: custom codes, or the one-time-use codes imported from Apple (0 until they \
            are imported).
            """)
    private static let assigned = JSONSchema.integer(
        minimum: 0, description: "Personal codes: how many were handed out. Shared codes: to how many recipients.")

    private static let statusBatch = JSONSchema.object(
        [
            .init("kind", batchKind), .init("batch", batchNumber), .init("environment", codeEnvironment),
            .init(
                "quarter",
                .string(StringRules(minLength: 1), description: "The quarter it counts against, such as `2027-Q1`.")),
            .init("expirationDate", expirationDate),
            .init(
                "expired",
                .boolean(description: "Whether it expired before today (UTC): its codes are no longer handed out.")),
            .init(
                "redemptionLimit",
                .integer(minimum: 1, description: "How many times each code can be redeemed (above 1: shared codes).")),
            .init(
                "shared",
                .boolean(description: "Whether its codes are shared: a redemption limit above 1.")),
            .init("codeCount", codeCount), .init("storedCodes", storedCodes),
            .init(
                "awaitingImport",
                .boolean(description: "Whether it is a one-time-use batch whose codes are not imported yet.")),
            .init("assigned", assigned),
            .init(
                "left",
                .integer(
                    minimum: 0,
                    description: """
                        How many more can be handed out: personal codes not handed out, or for shared codes the \
                        redemptions not handed out (codes times redemption limit, minus `assigned`).
                        """)),
        ], description: "One batch of an offer.")

    private static let statusTotals = JSONSchema.object(
        [
            .init("environment", codeEnvironment), .init("codeCount", codeCount), .init("storedCodes", storedCodes),
            .init("assigned", assigned),
            .init(
                "left",
                .integer(
                    minimum: 0,
                    description: """
                        What claims and exports can still hand out: left in the batches that have not expired, of the \
                        personal batches when the environment has any, else of the shared ones.
                        """)),
        ], description: "An offer's batches of one environment, added up.")

    private static let connectResource = JSONSchema.object(
        [
            .init(
                "request",
                .string(
                    StringRules(minLength: 1),
                    description: "The plan's request id, such as `offer-1-custom-code-3` (`offerkit codes plan`).")),
            .init(
                "offerKind",
                .enumeration(
                    CampaignOfferKind.allCases.map(\.rawValue),
                    description: """
                        The campaign list of its offer: `offerCode` (`offers`), `promotionalOffer`, \
                        `introductoryOffer` or `winBackOffer`.
                        """)),
            .init(
                "offer",
                .string(
                    StringRules(minLength: 1),
                    description: """
                        An offer code's `referenceName`; a promotional or win-back offer's `offerIdentifier`; an \
                        introductory offer's subscription id.
                        """)),
            .init(
                "kind",
                .enumeration(
                    ConnectResource.Kind.allCases.map(\.rawValue),
                    description: "The offer, one of its one-time-use batches, or one of its custom codes.")),
            .init(
                "key",
                .string(
                    description: """
                        Which one within the offer: empty for the offer, the batch's position from 0 for a \
                        one-time-use batch, the code upper-cased for a custom code; for a promotional or win-back \
                        offer its subscription's product identifier; for an introductory offer its territory and \
                        start date (`USA`, `USA 2027-03-01`).
                        """)),
            .init(
                "state",
                .enumeration(
                    ConnectResource.State.allCases.map(\.rawValue),
                    description: """
                        `planned`, `sent` (the outcome is unknown: looked up before it is sent again), `created` or \
                        `failed`.
                        """)),
            .init(
                "id",
                .string(StringRules(minLength: 1), description: "App Store Connect's id, once created.").orNull()),
            .init(
                "error",
                .string(
                    StringRules(minLength: 1),
                    description: "Apple's errors when it failed, or why the outcome is unknown; else `null`."
                ).orNull()),
            .init(
                "updatedAt",
                .string(
                    StringRules(minLength: 1), description: "When its state last changed: ISO 8601 in UTC.",
                    example: "2027-03-15T09:30:00.125Z")),
        ], description: "One App Store Connect resource of the campaign.")

    private static let usage = JSONSchema.object(
        [
            .init("quarter", .string(StringRules(minLength: 1), description: "This quarter (UTC), such as `2027-Q1`.")),
            .init(
                "productionCodes",
                .integer(
                    minimum: 0,
                    description: """
                        The app's production codes recorded in the quarter, over all campaigns (one-time-use codes \
                        plus custom codes times their redemption limit).
                        """)),
            .init("productionLimit", .integer(minimum: 0, description: "Apple's limit of production codes.")),
            .init(
                "sandboxCodes", .integer(minimum: 0, description: "The app's sandbox codes recorded in the quarter.")),
            .init("sandboxLimit", .integer(minimum: 0, description: "Apple's limit of sandbox codes.")),
            .init("activeOffers", .integer(minimum: 0, description: "The app's active offers, over all campaigns.")),
            .init("activeOfferLimit", .integer(minimum: 0, description: "Apple's limit of active offers per app.")),
        ], description: "The app's usage of Apple's limits in this quarter.")

    // MARK: Shared members

    private static let batchKind = JSONSchema.enumeration(
        [LedgerBatch.Kind.custom.rawValue, LedgerBatch.Kind.oneTimeUse.rawValue],
        description: "`custom` (custom codes) or `oneTimeUse` (one-time-use codes generated by Apple).")
    private static let batchNumber = JSONSchema.integer(
        minimum: 1,
        description: """
            The batch's number among the offer's custom-code or one-time-use batches, from 1 (2 is \
            `customCodes[1]`).
            """)
    private static let expirationDate = JSONSchema.string(
        StringRules(format: .date), description: "The last day the code can be redeemed; `null`: no expiration date."
    ).orNull()
    private static let codeEnvironment = JSONSchema.enumeration(
        CodeEnvironment.spellings,
        description: """
            `PRODUCTION`, or `SANDBOX` (the code works only in the sandbox): App Store Connect's names, as everywhere \
            in OfferKit.
            """)

    // MARK: Problems

    /// A campaign the ledger does not record; `field` is the field that named it (`campaign` in a
    /// claim's body; `nil` for a path parameter).
    package static func unknownCampaign(_ campaign: String, field: String?) -> ServiceProblem {
        ServiceProblem(
            .unknownCampaign, detail: "campaign \(campaign) is not recorded in the service's ledger", field: field)
    }

    /// An offer the campaign does not have; `field` is `offer` when the body names it.
    package static func unknownOffer(_ offer: String, campaign: String, field: String?) -> ServiceProblem {
        ServiceProblem(
            .unknownOffer,
            detail: "campaign \(campaign) has no offer \(quoted(offer)) in the service's ledger; expected the "
                + "referenceName of one of its offers",
            field: field)
    }

    /// An offer the ledger marks inactive.
    package static func offerInactive(_ offer: String, campaign: String) -> ServiceProblem {
        ServiceProblem(
            .offerInactive,
            detail: "offer \(quoted(offer)) of campaign \(campaign) is marked inactive in the ledger, so its codes "
                + "cannot be redeemed; nothing was handed out")
    }

    /// Every code of the offer in `environment` handed out.
    package static func noCodeLeft(
        campaign: String, offer: String, environment: CodeEnvironment, assigned: Int, stored: Int
    ) -> ServiceProblem {
        ServiceProblem(
            .noCodeLeft,
            detail: "no unassigned \(environment.rawValue.lowercased()) code is left for offer \(quoted(offer)) of "
                + "campaign \(campaign): \(assigned) of \(stored) are handed out; nothing was handed out now",
            extensions: [("assigned", .integer(assigned)), ("stored", .integer(stored))])
    }

    /// An offer with no codes to hand out, for `reason`.
    package static func nothingToAssign(campaign: String, offer: String, reason: String) -> ServiceProblem {
        ServiceProblem(
            .nothingToAssign,
            detail:
                "offer \(quoted(offer)) of campaign \(campaign) has no codes to hand out: \(reason); nothing was "
                + "handed out")
    }

    /// The ledger failed to answer.
    package static let ledgerUnavailable = ServiceProblem(
        .ledgerUnavailable,
        detail: "the service's code ledger failed to answer; retry (a claim gives the same code again); the "
            + "log has the details", headers: [("Retry-After", "1")])

    /// `text` in double quotes, for names that may hold spaces.
    private static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Examples

    package static let exampleAppAppleId = "1234567890"

    /// A claim of the example campaign's personal codes (`examples/campaign.json`).
    package static let exampleClaim = CodeAssignment(
        recipient: "user-8412", campaign: "spring-2027",
        code: IssuedCode(
            code: "VIPK7M2QX9R", offer: "Spring half price, 3 months", kind: .custom, batchIndex: 1, redemptionLimit: 1,
            expirationDate: nil, environment: .production),
        channel: .claim, assignedAt: Date(timeIntervalSince1970: 1_805_103_000.125), isNew: true)

    /// The example campaign's status, two of its offers, on 2027-03-15, after `codes apply` created
    /// the first offer: what `CampaignStatusReport` writes for it (a test of the service builds the
    /// same status in a ledger's values and checks that its report is this JSON, member for member).
    package static let exampleStatusText = """
        {
          "campaign": "spring-2027", "appAppleId": "1234567890", "today": "2027-03-15",
          "offers": [
            {
              "offer": "Spring trial, 1 month free", "active": true,
              "batches": [
                {"kind": "oneTimeUse", "batch": 1, "environment": "PRODUCTION", "quarter": "2027-Q1",
                  "expirationDate": "2027-06-13", "expired": false, "redemptionLimit": 1, "shared": false,
                  "codeCount": 1000, "storedCodes": 1000, "awaitingImport": false, "assigned": 412,
                  "left": 588},
                {"kind": "oneTimeUse", "batch": 2, "environment": "SANDBOX", "quarter": "2027-Q1",
                  "expirationDate": "2027-04-14", "expired": false, "redemptionLimit": 1, "shared": false,
                  "codeCount": 20, "storedCodes": 0, "awaitingImport": true, "assigned": 0, "left": 0}
              ],
              "totals": [
                {"environment": "PRODUCTION", "codeCount": 1000, "storedCodes": 1000, "assigned": 412,
                  "left": 588},
                {"environment": "SANDBOX", "codeCount": 20, "storedCodes": 0, "assigned": 0, "left": 0}
              ]
            },
            {
              "offer": "Spring half price, 3 months", "active": true,
              "batches": [
                {"kind": "custom", "batch": 1, "environment": "PRODUCTION", "quarter": "2027-Q1",
                  "expirationDate": "2027-06-15", "expired": false, "redemptionLimit": 10000,
                  "shared": true, "codeCount": 1, "storedCodes": 1, "awaitingImport": false, "assigned": 0,
                  "left": 10000},
                {"kind": "custom", "batch": 2, "environment": "PRODUCTION", "quarter": "2027-Q1",
                  "expirationDate": null, "expired": false, "redemptionLimit": 1, "shared": false,
                  "codeCount": 200, "storedCodes": 200, "awaitingImport": false, "assigned": 57, "left": 143}
              ],
              "totals": [
                {"environment": "PRODUCTION", "codeCount": 201, "storedCodes": 201, "assigned": 57,
                  "left": 143}
              ]
            }
          ],
          "usage": {"quarter": "2027-Q1", "productionCodes": 12000, "productionLimit": 1000000, "sandboxCodes": 20,
            "sandboxLimit": 10000, "activeOffers": 5, "activeOfferLimit": 10},
          "appStoreConnect": [
            {"request": "offer-1", "offerKind": "offerCode", "offer": "Spring trial, 1 month free", "kind": "offer",
              "key": "",
              "state": "created", "id": "6450000101", "error": null, "updatedAt": "2027-03-15T09:30:00.125Z"}
          ]
        }
        """

    /// ``exampleStatusText``, parsed.
    package static let exampleStatus: JSONValue = {
        guard let value = try? JSONValue.parse(Array(exampleStatusText.utf8)) else {
            preconditionFailure("the example campaign status is not valid JSON")
        }
        return value
    }()
}
