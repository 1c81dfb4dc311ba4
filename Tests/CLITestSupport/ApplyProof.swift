import Foundation
import InteropSupport
import OfferSigning
import Testing

/// One App Store Connect stand-in, one campaign and one ledger: what each proof of `offerkit codes
/// apply` runs on, and the checks of App Store Connect's state (the stand-in's) against the plan
/// and the ledger.
///
/// Nothing here trusts `apply`'s own account: resources are read from the stand-in's
/// `/_standin/state`, the ledger through `codes status --format json`, codes through `codes
/// export` and the stand-in's `GET …/values`.
final class ApplyProof {
    let standIn: AppStoreConnectStandIn
    let files: CampaignFiles
    /// The campaign file's path.
    let campaign: String
    let ledger: CampaignFiles.LedgerChoice

    /// Starts a stand-in for `examples/campaign.json`'s products on ``CampaignFiles/today``, in a new
    /// folder; `campaignText` (same products) replaces the example when given.
    init(campaignText: String? = nil, ledger: CampaignFiles.LedgerChoice = .folder) async throws {
        let files = try CampaignFiles.make()
        self.files = files
        campaign = try campaignText.map { try files.write($0, to: "campaign.json") } ?? CampaignFiles.example
        self.ledger = ledger
        standIn = try await AppStoreConnectStandIn.start(
            productsFromCampaign: CampaignFiles.example, today: CampaignFiles.today)
    }

    func stop() {
        standIn.stop()
        files.remove()
    }

    /// The `--ledger` value of ``ledger``.
    var ledgerPath: String {
        switch ledger {
        case .at(let path): path
        default: files.ledger
        }
    }

    /// `--api-base-url`, the demo key (mode 0600), its key id and issuer id.
    var connectArguments: [String] {
        [
            "--api-base-url", standIn.baseURL, "--key-file", DemoKey.privateCopy, "--key-id", DemoKey.keyId,
            "--issuer-id", DemoKey.issuerId,
        ]
    }

    /// `offerkit codes SUBCOMMAND CAMPAIGN arguments… --today … --ledger …`.
    func codes(_ subcommand: String, _ arguments: [String] = [], ledger: CampaignFiles.LedgerChoice? = nil) async throws
        -> CLIResult
    {
        try await files.run(subcommand, campaign, arguments, ledger: ledger ?? self.ledger)
    }

    /// `offerkit codes apply … --format json` against the stand-in.
    func apply(_ arguments: [String] = [], ledger: CampaignFiles.LedgerChoice? = nil) async throws -> CLIResult {
        try await codes("apply", connectArguments + arguments + ["--format", "json"], ledger: ledger)
    }

    /// The whole command line of `apply` (for ``BackgroundRun``).
    func applyCommand(_ arguments: [String] = []) -> [String] {
        ["codes", "apply", campaign] + connectArguments + arguments + [
            "--today", CampaignFiles.today, "--ledger", ledgerPath,
        ]
    }

    /// `codes plan --format json-lines`: one request per line.
    func plan() async throws -> [JSON] {
        let result = try await codes("plan", ["--format", "json-lines"])
        try #require(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map { JSON.parseLarge(Data($0.utf8)) }
        try #require(!lines.isEmpty && lines.allSatisfy { $0 != nil }, "\(result)")
        return lines.compactMap { $0 }
    }

    /// The stand-in's `GET /_standin/state`.
    func state() async throws -> StandInState {
        let data = try await standIn.stateData()
        return try #require(StandInState(JSON.parseLarge(data)), "no state")
    }

    /// `codes status --format json`.
    func status() async throws -> JSON {
        let result = try await codes("status", ["--format", "json"])
        try #require(result.status == 0, "\(result)")
        let status = JSON.parseLarge(Data(result.stdout.utf8))
        return try #require(status?.object != nil ? status : nil, "\(result)")
    }

    /// `codes apply --dry-run`'s closing counts: exist, would be created, looked up first, sent again.
    func dryRunTotals() async throws -> (exist: Int, create: Int, lookUp: Int, retry: Int) {
        let result = try await codes("apply", ["--dry-run"])
        try #require(result.status == 0, "\(result)")
        let line = try #require(result.stdout.split(separator: "\n").last { $0.contains("total: ") }, "\(result)")
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        try #require(
            numbers.count == 4
                && line.contains(
                    "exist, \(numbers[1]) would be created, \(numbers[2]) looked up first, \(numbers[3]) sent again"),
            "\(line)")
        return (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    // MARK: Checks

    /// The end of a successful run (or series of runs), from App Store Connect's side: every planned
    /// resource exists exactly once with the planned attributes, no create was repeated, every
    /// token, body and answer was valid, the ledger's ids are the stand-in's, every one-time-use
    /// batch's codes are imported once and exported. Returns the stand-in's resources normalised
    /// (no ids or creation times), to compare runs.
    @discardableResult
    func checkEndState(plan: [JSON], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        let state = try await state()
        for counter in [
            "repeatedCreates", "tokenFailures", "schemaFailures", "responseSchemaFailures", "nullAttributes",
            "rateLimited",
        ] {
            #expect(
                state.raw[counter]?.int == 0, "the stand-in counted \(counter): \(state.raw[counter] ?? .null)",
                sourceLocation: sourceLocation)
        }
        #expect(
            state.raw["repeatedCreateLog"]?.array?.isEmpty == true, "\(state.raw["repeatedCreateLog"] ?? .null)",
            sourceLocation: sourceLocation)

        // Every planned resource (prices included in their offer's request) exists exactly once.
        var planned: [String: Int] = [:]
        for request in plan {
            if let type = request["body"]?["data"]?["type"]?.string { planned[type, default: 0] += 1 }
            for included in request["body"]?["included"]?.array ?? [] {
                if let type = included["type"]?.string { planned[type, default: 0] += 1 }
            }
        }
        let existing = Dictionary(grouping: state.resources, by: \.type).mapValues(\.count)
        #expect(
            existing == planned, "resources per type in the stand-in against the plan", sourceLocation: sourceLocation)

        // Each create was sent once: every POST either created its resource (once) or was not processed.
        let posts = state.posts
        let unexpected = posts.filter { post in
            !(post.outcome.hasPrefix("fault ") && post.outcome.hasSuffix("not processed"))
                && !(post.outcome.hasPrefix("created") && !post.outcome.hasPrefix("created (repeated)"))
        }
        #expect(
            unexpected.isEmpty, "POSTs that neither created once nor were refused unprocessed: \(unexpected.prefix(5))",
            sourceLocation: sourceLocation)
        let createdIds = posts.filter { $0.outcome.hasPrefix("created") }.compactMap(\.id)
        #expect(Set(createdIds).count == createdIds.count, "an id created twice", sourceLocation: sourceLocation)
        #expect(
            Set(createdIds) == Set(state.connectResources.map(\.id)),
            "the POSTs that created something are not the resources", sourceLocation: sourceLocation)

        // The ledger holds every resource created, with the stand-in's id.
        let status = try await status()
        let ledger = status["appStoreConnect"]?.array ?? []
        #expect(ledger.count == plan.count, "ledger resources against the plan", sourceLocation: sourceLocation)
        let notCreated = ledger.filter { $0["state"]?.string != "created" }
        #expect(
            notCreated.isEmpty, "ledger resources not created: \(notCreated.prefix(3))", sourceLocation: sourceLocation)
        try checkLedger(plan: plan, state: state, status: status, sourceLocation: sourceLocation)

        // One-time-use codes: imported once, every one of them exportable.
        var oneTimeUseBatches = 0
        for offer in status["offers"]?.array ?? [] {
            for batch in offer["batches"]?.array ?? [] where batch["kind"]?.string == "oneTimeUse" {
                oneTimeUseBatches += 1
                #expect(
                    batch["storedCodes"] == batch["codeCount"] && batch["awaitingImport"] == .bool(false),
                    "\(offer["offer"] ?? .null): \(batch)", sourceLocation: sourceLocation)
            }
        }
        #expect(
            oneTimeUseBatches == existing.filter { $0.key.hasSuffix("OneTimeUseCodes") }.values.reduce(0, +),
            sourceLocation: sourceLocation)
        // A campaign of promotional, introductory and win-back offers only has no codes to export.
        guard !(status["offers"]?.array ?? []).isEmpty else { return state.normalized() }
        let export = try await codes("export", ["--format", "csv", "--environment", "all"])
        #expect(export.status == 0, "\(export)", sourceLocation: sourceLocation)
        let exported = CampaignFiles.codes(ofCSV: export.stdout)
        var expected = Set(state.connectResources.compactMap { $0.attributes["customCode"]?.string })
        let token = try ConnectAPITokenSigner(key: DemoKey.key, issuer: .team(issuerId: DemoKey.issuerId))
            .token(lifetime: 600).token
        for batch in state.connectResources where batch.type.hasSuffix("OneTimeUseCodes") {
            let answer = try await standIn.request("GET", "/v1/\(batch.type)/\(batch.id)/values", bearer: token)
            #expect(answer.status == 200, "\(answer.text)", sourceLocation: sourceLocation)
            let values = answer.text.split(separator: "\n").map(String.init)
            #expect(
                JSON.int(Int64(values.count)) == batch.attributes["numberOfCodes"], "\(batch.id)",
                sourceLocation: sourceLocation)
            expected.formUnion(values)
        }
        #expect(exported.count == Set(exported).count, "a code exported twice", sourceLocation: sourceLocation)
        let onlyExported = Set(exported).subtracting(expected).count
        let onlyInStandIn = expected.subtracting(exported).count
        #expect(
            Set(exported) == expected,
            "codes only exported: \(onlyExported), only in the stand-in: \(onlyInStandIn)",
            sourceLocation: sourceLocation)
        return state.normalized()
    }

    /// What must hold at every moment, also right after a kill: each resource the ledger records as
    /// created is the stand-in's resource with that id, made from the request the ledger names; and
    /// every resource the stand-in has is either recorded created or recorded `sent` (its outcome
    /// unknown, so that the next run looks it up before sending anything). Returns the numbers of
    /// created and sent resources in the ledger.
    @discardableResult
    func checkLedger(
        plan: [JSON], state: StandInState, status: JSON, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (created: Int, sent: Int) {
        let requests = Dictionary(plan.compactMap { line in line["id"]?.string.map { ($0, line) } }) { first, _ in first
        }
        let ledger = status["appStoreConnect"]?.array ?? []
        var ids: [String: String] = [:]  // request id -> App Store Connect id
        for entry in ledger where entry["state"]?.string == "created" {
            if let request = entry["request"]?.string, let id = entry["id"]?.string { ids[request] = id }
        }
        let byId = Dictionary(state.connectResources.map { ($0.id, $0) }) { first, _ in first }
        func offerId(of request: JSON) -> String? { request["dependsOn"]?[0]?.string.flatMap { ids[$0] } }

        var created = 0
        var sent: [JSON] = []
        for entry in ledger {
            guard let request = entry["request"]?.string.flatMap({ requests[$0] }) else {
                Issue.record("a ledger resource outside the plan: \(entry)", sourceLocation: sourceLocation)
                continue
            }
            switch entry["state"]?.string {
            case "created":
                created += 1
                guard let id = entry["id"]?.string, let resource = byId[id] else {
                    Issue.record("the ledger's id is not in the stand-in: \(entry)", sourceLocation: sourceLocation)
                    continue
                }
                #expect(
                    resource.isCreated(by: request, offerId: offerId(of: request)),
                    "the ledger's \(entry) is the stand-in's \(resource)", sourceLocation: sourceLocation)
                if resource.type.hasSuffix("OfferCodes") {
                    #expect(
                        Set(resource.prices.compactMap { state.priceText[$0] }) == StandInState.prices(of: request),
                        "prices of \(entry)", sourceLocation: sourceLocation)
                }
            case "sent": sent.append(request)
            default: break
            }
        }
        let recordedIds = Set(ids.values)
        #expect(recordedIds.count == ids.count, "two ledger resources with one id", sourceLocation: sourceLocation)
        // Offers by name and custom codes by code are unique in the stand-in; batches by offer and attributes.
        for resource in state.connectResources {
            let explained =
                recordedIds.contains(resource.id)
                || sent.contains { resource.isCreated(by: $0, offerId: offerId(of: $0)) }
            #expect(
                explained, "the stand-in holds \(resource), which the ledger neither records nor marks sent",
                sourceLocation: sourceLocation)
        }
        return (created, sent.count)
    }

    // MARK: Shared by the apply suites

    /// `examples/subscription-offers.json` with `extra` more promotional and win-back offers each (copies
    /// with other identifiers), renamed: 1 + extra promotional, 3 introductory (one per territory) and
    /// 1 + extra win-back resources.
    static func subscriptionOffersCampaign(name: String, extra: Int = 0) throws -> String {
        let path = CLI.packageRoot.appendingPathComponent("examples/subscription-offers.json")
        var campaign = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        campaign["name"] = name
        for member in ["promotionalOffers", "winBackOffers"] {
            var offers = try #require(campaign[member] as? [[String: Any]])
            let first = try #require(offers.first)
            for number in 0..<extra {
                var copy = first
                copy["referenceName"] = "\(first["referenceName"] ?? "") \(number + 2)"
                copy["offerIdentifier"] = "\(first["offerIdentifier"] ?? "")_\(number + 2)"
                offers.append(copy)
            }
            campaign[member] = offers
        }
        let data = try JSONSerialization.data(withJSONObject: campaign, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// `POST … 201` lines of `--verbose`: resources this run created.
    static func created(in stderr: String) -> Int {
        stderr.split(separator: "\n").count(where: { $0.hasPrefix("offerkit: POST ") && $0.contains(" 201 ") })
    }
}
