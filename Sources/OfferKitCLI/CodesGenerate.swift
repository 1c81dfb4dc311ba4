import ArgumentParser
import Foundation
import OfferCodes
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes generate`: the custom codes of a campaign, recorded in the ledger; or a plain
/// stream of unique codes with `--count`.
struct CodesGenerate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate custom codes: a campaign's batches (recorded in the ledger), or --count codes to a file.",
        discussion: """
            With a campaign: validates it, then records every code batch in the ledger, each batch atomically \
            (a crash leaves nothing of it). Given codes are recorded as they are; "generate" batches are drawn \
            from a cryptographic random source and are unique against the whole ledger. Batches already \
            recorded are left as they are, so running it again is safe. Then use `codes plan` and `codes export`.

            Without a campaign: --count unique codes (at most 100,000,000), one per line, to --out or stdout \
            (no ledger), streamed in constant memory.
            """)

    @Argument(help: "The campaign file (JSON), or '-' for stdin. Omit it to generate --count codes.")
    var campaign: String?

    @Option(parsing: .unconditional, help: "Without a campaign: how many unique codes to generate (1 to 100,000,000).")
    var count: Int?

    @Option(help: "Without a campaign: characters before the random part (A-Z, 0-9).")
    var prefix: String = ""

    @Option(parsing: .unconditional, help: "Without a campaign: random characters per code.")
    var length: Int = CodeGenerationSpec.defaultLength

    @Option(help: "Without a campaign: the characters to draw from (A-Z, 0-9; default: no look-alikes).")
    var alphabet: String = CodeGenerationSpec.defaultAlphabet

    @Option(help: "Without a campaign: write the codes to this file (whole or not at all) instead of stdout.")
    var out: String?

    @Flag(help: "Replace --out if it exists.")
    var force = false

    @Option(
        parsing: .unconditional,
        help: """
            Without a campaign: reproducible codes from this seed, for tests and examples. UNSAFE for \
            production: anyone who knows the seed can list every code.
            """)
    var seed: UInt64?

    @OptionGroup var ledger: LedgerOptions

    @Option(
        parsing: .unconditional,
        help: "The day (YYYY-MM-DD, UTC) that expiry limits, relative dates and quarters count from.")
    var today: String?

    func validate() throws {
        if campaign != nil {
            if count != nil || out != nil {
                throw ValidationError("--count and --out are for generating without a campaign; use `codes export`")
            }
            if seed != nil {
                throw ValidationError(
                    "--seed is only for plain codes (--count) in tests and examples: a campaign's codes are recorded "
                        + "and handed out, so they always come from the cryptographic random source")
            }
        } else if count == nil {
            throw ValidationError("give a campaign file, or --count for plain codes")
        } else if length < CodeGenerationSpec.minimumLength {
            throw ValidationError(
                "--length must be at least \(CodeGenerationSpec.minimumLength), so codes cannot be guessed")
        }
    }

    func run() async throws {
        if campaign == nil { try Self.checkPlainCount(count ?? 0) }
        if let seed, campaign == nil {
            Output.warning(
                "--seed \(seed): UNSAFE for production: reproducible codes are guessable; never hand them out")
        }
        if let campaign {
            try await ledger.withWritable { try await generate(campaignPath: campaign, ledger: $0) }
        } else {
            try generatePlain()
        }
    }

    private var random: CodeRandomSource { seed.map(CodeRandomSource.seeded) ?? .system }

    /// Refuses a plain `--count` below 1 or above ``CodeGenerator/maximumCount`` (exit 2), before
    /// anything is opened or allocated.
    static func checkPlainCount(_ count: Int) throws {
        guard count >= 1 else { throw CLIError.usage("--count must be at least 1") }
        guard count <= CodeGenerator.maximumCount else {
            throw CLIError.usage(
                "--count \(count) is too large: at most \(ProgressReporter.grouped(CodeGenerator.maximumCount)) "
                    + "codes are generated per run")
        }
    }

    /// `--count` unique codes from a ``UniqueCodeStream``: memory stays the same whatever the count.
    private func generatePlain() throws {
        let count = count ?? 0
        let spec = CodeGenerationSpec(count: count, prefix: prefix, length: length, alphabet: alphabet)
        let stream = try UniqueCodeStream(spec: spec, random: random)
        let sink = try OutputSink(path: out, overwrite: force)
        var progress = ProgressReporter("generating codes", total: count)
        do {
            while try stream.next({ try sink.writeLine($0) }) != nil {
                progress.update(stream.produced)
            }
            progress.finish()
            try sink.finish()
        } catch {
            progress.finish()
            sink.abandon()
            throw error
        }
    }

    private func generate(campaignPath: String, ledger: CodeLedger) async throws {
        // New codes are unique by the ledger's index: check that it matches the codes table.
        try await ledger.checkIntegrity(thorough: true)
        let today = try CampaignOptions.day(today)
        let campaign = try await CampaignOptions.load(path: campaignPath, ledger: ledger, today: today)
        try await RecordedBatchCheck.verify(campaign, ledger: ledger)
        if campaign.offers.isEmpty {
            // No codes to record: the campaign itself, which `codes apply` records its promotional,
            // introductory and win-back offers under.
            try await ledger.recordCampaign(campaign)
            Output.note("campaign \(campaign.name) recorded; it has no offer codes to generate")
        }
        for offer in campaign.offers {
            for (batchIndex, batch) in offer.oneTimeUseCodes.enumerated() {
                let record = LedgerBatch(
                    campaign: campaign.name, offer: offer.referenceName, kind: .oneTimeUse, index: batchIndex,
                    quarter: today.quarter, redemptionLimit: 1, codeCount: batch.count,
                    expirationDate: batch.expirationDate, environment: batch.effectiveEnvironment)
                let added = try await ledger.recordBatch(record, campaign: campaign, codes: .none) == .recorded
                report(
                    offer, "one-time-use batch \(batchIndex + 1)", added: added,
                    what: Self.codes(batch.count) + " from Apple")
            }
            for (batchIndex, batch) in offer.customCodes.enumerated() {
                let record = LedgerBatch(
                    campaign: campaign.name, offer: offer.referenceName, kind: .custom, index: batchIndex,
                    quarter: today.quarter, redemptionLimit: batch.redemptionLimit, codeCount: batch.codeCount,
                    expirationDate: batch.expirationDate, environment: .production)
                let label = "custom-code batch \(batchIndex + 1)"
                var progress = ProgressReporter("\(offer.referenceName), \(label)", total: batch.codeCount)
                defer { progress.finish() }
                let codes: BatchCodes =
                    switch batch.source {
                    case .given(let codes): .given(codes)
                    case .generated(let spec): .generated(spec, random: .system)
                    }
                let recording = try await ledger.recordBatch(record, campaign: campaign, codes: codes) {
                    progress.update($0)
                }
                if case .codesTaken(let taken, _) = recording {
                    throw CLIError.invalidInput(
                        "offer \"\(offer.referenceName)\", \(label): code \(taken.first ?? "?") was already issued for "
                            + "app \(campaign.app.appAppleId); nothing of the batch was recorded")
                }
                report(offer, label, added: recording == .recorded, what: Self.codes(batch.codeCount))
            }
        }
        Output.line("ledger: \(ledger.name); next: offerkit codes plan, offerkit codes export")
    }

    static func codes(_ count: Int) -> String { "\(ProgressReporter.grouped(count)) code\(count == 1 ? "" : "s")" }

    private func report(_ offer: OfferDefinition, _ label: String, added: Bool, what: String) {
        let state = added ? "recorded" : "already recorded, unchanged"
        Output.line("\(offer.referenceName): \(label): \(what), \(state)")
    }
}
