import ArgumentParser
import Foundation
import OfferCodes
import OfferJSON
import OfferKitSigningCLI
import OfferLedger
import OfferSigning

/// `offerkit codes plan`: the App Store Connect requests that create a campaign.
struct CodesPlan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print the App Store Connect requests (method, path, JSON:API body) that create a campaign.",
        discussion: """
            Requests come in dependency order: each offer code, then its one-time-use batches and custom codes; \
            then the campaign's promotional, introductory (one request per territory) and win-back offers. \
            A body that needs an id App Store Connect returns holds a placeholder "<id of REQUEST>": replace it \
            with data.id of the 201 response to that request (listed in dependsOn). Generated custom codes are \
            read from the ledger: run `codes generate` first. Nothing is sent to App Store Connect.

            A price written as a customer price ({"territory": "USA", "customerPrice": "4.99"}) is planned with \
            the price point the ledger recorded for it; one not recorded yet is looked up in App Store Connect \
            with the API key (options as for `codes apply`) and recorded in the ledger when it holds the campaign \
            (`codes generate` records it): the one thing plan writes, so that every later plan and `codes apply` \
            send the same price point. Without credentials such a price is refused, naming the look-up that \
            finds its id. A checkout's demo key looks prices up only with --api-base-url (a stand-in).

            --format document (default): one JSON document. --format json-lines: one compact request per line, \
            streamed (for very large campaigns and for scripts).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable, EnumeratedValue {
        case document
        case jsonLines = "json-lines"
    }

    @OptionGroup var options: CampaignOptions
    @OptionGroup var noLedger: NoLedgerOption
    @OptionGroup(title: "Looking up customer prices") var connect: ConnectOptions

    @Option(help: "document (one JSON document) or json-lines (one request per line).")
    var format: Format = .document

    @Option(help: "Write the plan to this file (whole or not at all) instead of stdout.")
    var out: String?

    @Flag(help: "Replace --out if it exists.")
    var force = false

    func validate() throws { try noLedger.check(options.ledger) }

    func run() async throws {
        // Opened first: a refused --out costs no look-up.
        let sink = try OutputSink(path: out, overwrite: force)
        do {
            let (campaign, codes) = try await pricedCampaign()
            switch format {
            case .document:
                let requests = try RequestPlanner().planCampaign(campaign, customCodes: codes.codes)
                try sink.write(RequestPlanner.document(campaign: campaign, requests: requests).serialized(pretty: true))
                try sink.write([0x0A])
            case .jsonLines:
                try RequestPlanner().forEachCampaignRequest(in: campaign, customCodes: codes.codes) { request in
                    try sink.write(request.jsonValue().serialized())
                    try sink.write([0x0A])
                }
            }
            try sink.finish()
        } catch let error as RequestPlanningError {
            sink.abandon()
            throw CampaignPriceResolver.explained(error)
        } catch {
            sink.abandon()
            throw error
        }
    }

    /// The campaign as the ledger recorded it, its customer prices resolved (and what a look-up
    /// found recorded), and the codes of its generated batches.
    private func pricedCampaign() async throws -> (Campaign, CustomCodeSource) {
        let (read, codes, recorded, isRecorded) = try await noLedger.withReadable(options.ledger) { ledger in
            // Given codes are looked up in the ledger's index: check that it matches the codes table.
            try await ledger?.checkIntegrity(thorough: true)
            let campaign = try await Self.withRecordedExpiry(options.loadAsRecorded(ledger: ledger), ledger: ledger)
            if let ledger { try await RecordedBatchCheck.verify(campaign, ledger: ledger) }
            let codes = try await CustomCodeSource.read(campaign: campaign, ledger: ledger)
            let isRecorded = try await ledger?.campaignRecordedDay(campaign.name) != nil
            let recorded = isRecorded ? try await ledger?.recordedPricePoints(campaign: campaign.name) ?? [] : []
            return (campaign, codes, recorded, isRecorded)
        }
        let resolved = try await CampaignPriceResolver(connect: connect).resolve(read, recorded: recorded)
        guard !resolved.lookedUp.isEmpty else { return (resolved.campaign, codes) }
        let notRecorded =
            "looked up \(resolved.lookedUp.count) customer price(s) in App Store Connect but recorded none"
        guard isRecorded else {
            Output.note(
                notRecorded + ": "
                    + (noLedger.disabled ? "--no-ledger" : "the ledger does not hold campaign \(read.name)")
                    + "; run `offerkit codes generate` first, so that plan records them and every later plan "
                    + "sends the same price points")
            return (resolved.campaign, codes)
        }
        do {
            // The one write of plan: what the look-up found, so that every later plan agrees.
            let campaign = try await options.ledger.withExisting { ledger in
                guard let ledger else { throw LedgerError.unknownCampaign(campaign: read.name) }
                return try await CampaignPriceResolver.record(resolved, of: read, in: ledger)
            }
            return (campaign, codes)
        } catch let error as LedgerError {
            Output.note(
                notRecorded + ": \(error.localizedDescription); this plan uses what the look-up found, and the next "
                    + "plan looks them up again")
            return (resolved.campaign, codes)
        }
    }
}

extension CodesPlan {
    /// Batches already recorded by `codes generate` keep the expiry they were recorded with, so a
    /// relative date ("P90D") planned on a later day still matches the ledger and the exports.
    static func withRecordedExpiry(_ campaign: Campaign, ledger: CodeLedger?) async throws -> Campaign {
        guard let ledger else { return campaign }
        var campaign = campaign
        for batch in try await ledger.batches(campaign: campaign.name) {
            guard let offerIndex = campaign.offers.firstIndex(where: { $0.referenceName == batch.offer }) else {
                continue
            }
            switch batch.kind {
            case .custom where campaign.offers[offerIndex].customCodes.indices.contains(batch.index):
                campaign.offers[offerIndex].customCodes[batch.index].expirationDate = batch.expirationDate
            case .oneTimeUse where campaign.offers[offerIndex].oneTimeUseCodes.indices.contains(batch.index):
                if let date = batch.expirationDate {
                    campaign.offers[offerIndex].oneTimeUseCodes[batch.index].expirationDate = date
                }
            default: continue
            }
        }
        return campaign
    }
}

/// The code strings of a custom-code batch: given ones from the campaign, generated ones from the
/// ledger, read before planning (the planner asks for them as it goes).
struct CustomCodeSource: Sendable {
    let campaign: Campaign
    /// The generated batches' codes, by offer reference name and batch index.
    private let generated: [String: [String]]

    /// Reads the codes of the campaign's generated batches; fails before anything is written when
    /// one is not in the ledger yet.
    static func read(campaign: Campaign, ledger: CodeLedger?) async throws -> CustomCodeSource {
        let recorded = Set(
            try await ledger?.batches(campaign: campaign.name).filter { $0.kind == .custom }.map {
                "\($0.offer)\u{0}\($0.index)"
            } ?? [])
        var generated: [String: [String]] = [:]
        for offer in campaign.offers {
            for (batchIndex, batch) in offer.customCodes.enumerated() {
                guard case .generated = batch.source else { continue }
                let key = "\(offer.referenceName)\u{0}\(batchIndex)"
                guard recorded.contains(key), let ledger else { throw missing(offer, batchIndex) }
                generated[key] = try await ledger.customCodes(
                    campaign: campaign.name, offer: offer.referenceName, batchIndex: batchIndex)
            }
        }
        return CustomCodeSource(campaign: campaign, generated: generated)
    }

    private static func missing(_ offer: OfferDefinition, _ batchIndex: Int) -> CLIError {
        CLIError.usage(
            "offer \"\(offer.referenceName)\", custom-code batch \(batchIndex + 1) is generated: run "
                + "`offerkit codes generate` first (with the same ledger), then plan again")
    }

    /// The planner asks only for generated batches; given codes come from the campaign itself.
    func codes(offerIndex: Int, batchIndex: Int) throws -> [String] {
        let offer = campaign.offers[offerIndex]
        let codes = generated["\(offer.referenceName)\u{0}\(batchIndex)"] ?? []
        guard !codes.isEmpty else { throw Self.missing(offer, batchIndex) }
        return codes
    }
}
