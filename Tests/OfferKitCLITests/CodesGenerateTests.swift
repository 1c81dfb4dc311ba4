import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes generate`, run as the built binary: campaign batches recorded in the ledger,
/// and plain codes with `--count`.
@Suite("offerkit codes generate")
struct CodesGenerateTests {
    /// The batch lines `codes generate` prints for the example campaign.
    static let exampleBatches = [
        "Spring trial, 1 month free: one-time-use batch 1: 1,000 codes from Apple",
        "Spring trial, 1 month free: one-time-use batch 2: 20 codes from Apple",
        "Spring half price, 3 months: custom-code batch 1: 1 code",
        "Spring half price, 3 months: custom-code batch 2: 200 codes",
        "Win-back, first year paid up front: one-time-use batch 1: 500 codes from Apple",
        "Gem pack launch: one-time-use batch 1: 100 codes from Apple",
        "Pro unlock for press and reviewers: custom-code batch 1: 2 codes",
        "Pro unlock for press and reviewers: custom-code batch 2: 100 codes",
        "Season pass, 30% off: one-time-use batch 1: 200 codes from Apple",
        "Season pass, 30% off: custom-code batch 1: 1,000 codes",
    ]

    @Test func recordsBatchesOnceAndRunningAgainChangesNothing() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let first = try await files.run("generate", CampaignFiles.example)
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr.isEmpty, "no warning and no progress when stderr is a file\n\(first)")
        let ledgerLine = "ledger: \(files.ledger); next: offerkit codes plan, offerkit codes export"
        let firstLines: [String] = first.output.split(separator: "\n").map { String($0) }
        let recorded: [String] = Self.exampleBatches.map { (batch: String) -> String in batch + ", recorded" }
        #expect(firstLines == recorded + [ledgerLine])
        let before = try await files.run("export", CampaignFiles.example)
        #expect(before.status == 0, "\(before)")
        // 1 + 200 + 2 + 100 + 1,000 custom codes; Apple's one-time-use codes are not imported yet.
        #expect(CampaignFiles.codes(ofCSV: before.stdout).count == 1303)

        let again = try await files.run("generate", CampaignFiles.example)
        #expect(again.status == 0, "\(again)")
        let againLines: [String] = again.output.split(separator: "\n").map { String($0) }
        let unchanged: [String] = Self.exampleBatches.map { (batch: String) -> String in
            batch + ", already recorded, unchanged"
        }
        #expect(againLines == unchanged + [ledgerLine])
        let after = try await files.run("export", CampaignFiles.example)
        #expect(after.status == 0, "\(after)")
        #expect(after.stdout == before.stdout, "running generate again changed the ledger's codes")

        // The campaign's own codes do not count against it.
        let validate = try await files.run("validate", CampaignFiles.example)
        #expect(validate.status == 0, "\(validate)")
    }

    /// Two offers with a generated batch each, so seeded batches must also differ from each other.
    static let twoGeneratedBatches = CampaignFiles.campaign(
        name: "seeded",
        offers: [
            CampaignFiles.offer("First", custom: [CampaignFiles.generated(count: 50, prefix: "S", length: 6)]),
            CampaignFiles.offer("Second", custom: [CampaignFiles.generated(count: 50, prefix: "S", length: 6)]),
        ])

    @Test func seedIsOnlyForPlainCodesAndCampaignCodesAlwaysDiffer() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(Self.twoGeneratedBatches, to: "seeded.json")
        // Codes recorded in a ledger are handed out: a guessable seed is refused before anything is recorded.
        let seeded = try await files.run("generate", campaign, ["--seed", "42"], ledger: .at(files.file("a.sqlite")))
        Expect.failure(seeded, status: 2, mentioning: ["--seed", "--count"])
        #expect(seeded.stdout.isEmpty, "\(seeded)")
        await Expect.failure(
            try files.run("export", campaign, ledger: .at(files.file("a.sqlite"))), status: 4, mentioning: ["no codes"])

        func codes(ledger: String) async throws -> [String] {
            let generate = try await files.run("generate", campaign, ledger: .at(files.file(ledger)))
            #expect(generate.status == 0 && generate.stderr.isEmpty, "\(generate)")
            let export = try await files.run("export", campaign, ledger: .at(files.file(ledger)))
            #expect(export.status == 0, "\(export)")
            return CampaignFiles.codes(ofCSV: export.stdout)
        }
        let randomA = try await codes(ledger: "d.sqlite")
        let randomB = try await codes(ledger: "e.sqlite")
        #expect(randomA.count == 100 && randomB.count == 100)
        #expect(Set(randomA.prefix(50)).isDisjoint(with: randomA.suffix(50)))
        #expect(Set(randomA).isDisjoint(with: randomB), "without a seed two fresh ledgers get different codes")

        // Plain mode: the same seed gives the same codes, with a warning; another seed or none gives others.
        let plain = ["--count", "20", "--seed", "7"]
        let plainA = try await files.run("generate", nil, plain, ledger: .none)
        let plainB = try await files.run("generate", nil, plain, ledger: .none)
        #expect(plainA.status == 0 && plainA.stdout.split(separator: "\n").count == 20, "\(plainA)")
        #expect(plainA.stdout == plainB.stdout)
        #expect(
            plainA.stderr.hasPrefix("offerkit: warning: --seed 7: ") && plainA.stderr.contains("UNSAFE for production"),
            "\(plainA)")
        let otherSeed = try await files.run("generate", nil, ["--count", "20", "--seed", "8"], ledger: .none)
        #expect(Set(otherSeed.stdout.split(separator: "\n")).isDisjoint(with: plainA.stdout.split(separator: "\n")))
        let unseeded = try await files.run("generate", nil, ["--count", "20"], ledger: .none)
        #expect(unseeded.status == 0 && unseeded.stderr.isEmpty, "\(unseeded)")
        #expect(unseeded.stdout != plainA.stdout)
    }

    @Test func generatedCodesFollowPrefixLengthAndAlphabet() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let specs: [(offer: String, count: Int, prefix: String, length: Int, alphabet: String, batch: String)] = [
            (
                "VIP", 300, "VIP", 8, CampaignFiles.defaultAlphabet,
                CampaignFiles.generated(count: 300, prefix: "VIP", length: 8)
            ),
            ("Defaults", 200, "", 10, CampaignFiles.defaultAlphabet, CampaignFiles.generated(count: 200)),
            (
                "Small alphabet", 100, "X9", 6, "XYZ789",
                CampaignFiles.generated(count: 100, prefix: "X9", length: 6, alphabet: "XYZ789")
            ),
        ]
        let campaign = try files.write(
            CampaignFiles.campaign(
                name: "shapes", offers: specs.map { CampaignFiles.offer($0.offer, custom: [$0.batch]) }),
            to: "shapes.json")
        let generate = try await files.run("generate", campaign)
        #expect(generate.status == 0, "\(generate)")
        let export = try await files.run("export", campaign, ["--format", "json"])
        #expect(export.status == 0, "\(export)")
        let rows = try #require(JSON.parse(export.stdout)?.array, "\(export)")
        #expect(rows.count == 600)
        for spec in specs {
            let codes = rows.filter { $0["offer"]?.string == spec.offer }.compactMap { $0["code"]?.string }
            #expect(codes.count == spec.count, "\(spec.offer)")
            #expect(Set(codes).count == codes.count, "\(spec.offer): codes repeat")
            let allowed = Set(spec.alphabet)
            let wrong = codes.filter {
                !$0.hasPrefix(spec.prefix) || $0.count != spec.prefix.count + spec.length
                    || !$0.dropFirst(spec.prefix.count).allSatisfy(allowed.contains)
            }
            #expect(
                wrong.isEmpty,
                "\(spec.offer): codes not \(spec.prefix) + \(spec.length) of \(spec.alphabet): \(wrong.prefix(5))")
        }
    }

    @Test func customCodeIssuedByAnotherCampaignIsRefused() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        await #expect(try files.run("generate", CampaignFiles.example).status == 0)
        let exported = try await files.run("export", CampaignFiles.example)
        for code in ["SPRING27", "spring27"] {
            let summer = try files.write(
                CampaignFiles.campaign(
                    name: "summer-2027",
                    offers: [CampaignFiles.offer("Summer unlock", custom: [CampaignFiles.given(["SUMMER27", code])])]),
                to: "summer.json")
            let validate = try await files.run("validate", summer, ["--format", "json"])
            #expect(validate.status == 4, "\(validate)")
            let problems = validate.json?["problems"]?.array ?? []
            #expect(
                problems.contains {
                    $0["rule"] == .string("duplicate-custom-code")
                        && $0["path"] == .string("$.offers[0].customCodes[0].codes[1]")
                },
                "\(code): \(validate)")

            let generate = try await files.run("generate", summer)
            Expect.failure(generate, status: 4, mentioning: ["$.offers[0].customCodes[0].codes[1]", "already issued"])
            let summerExport = try await files.run("export", summer)
            Expect.failure(summerExport, status: 4, mentioning: ["no codes"])
        }
        let after = try await files.run("export", CampaignFiles.example)
        #expect(after.stdout == exported.stdout)
    }

    @Test func plainModeWritesUniqueLinesToOut() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let out = files.file("codes.txt")
        let result = try await files.run(
            "generate", nil, ["--count", "1000", "--length", "8", "--prefix", "T", "--out", out], ledger: .none)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\r"), "progress on a non-terminal")
        #expect(result.stderr.isEmpty, "\(result)")
        let text = try #require(files.text(of: out))
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 1000)
        #expect(Set(lines).count == 1000, "codes repeat")
        let alphabet = Set(CampaignFiles.defaultAlphabet)
        #expect(lines.allSatisfy { $0.count == 9 && $0.hasPrefix("T") && $0.dropFirst().allSatisfy(alphabet.contains) })
        #expect(files.listing() == ["codes.txt"], "no temporary file is left behind")
    }

    static let scriptAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    /// The other side of "no progress when stderr is not a terminal": on a terminal (a pty from
    /// util-linux `script`) the progress line is drawn and cleared.
    @Test(
        .enabled(
            if: scriptAvailable,
            "SKIPPED: /usr/bin/script (util-linux) is missing, so progress on a terminal is not checked"))
    func progressIsDrawnOnlyOnATerminal() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let binary = CLI.binary
        let out = files.file("codes.txt")
        let command = "'\(binary.path)' codes generate --count 3000 --out '\(out)'"
        let terminal = try await Independent.run("script", ["-qec", command, "/dev/null"])
        #expect(terminal.status == 0, "\(terminal.stdout)\(terminal.stderr)")
        #expect(
            terminal.stdout.contains("\r\u{1B}[2Kofferkit: generating codes 1,024/3,000 (34%)"), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("3,000/3,000 (100%)"), "\(terminal.stdout)")
        #expect(terminal.stdout.hasSuffix("\r\u{1B}[2K"), "the line is cleared at the end")
        #expect(files.text(of: out)?.split(separator: "\n").count == 3000)

        let file = try await files.run("generate", nil, ["--count", "3000", "--out", out, "--force"], ledger: .none)
        #expect(file.status == 0, "\(file)")
        #expect(file.stderr.isEmpty, "progress on a stderr that is a file: \(file.stderr.debugDescription)")
    }

    @Test func existingOutNeedsForce() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let out = try files.write("keep me\n", to: "codes.txt")
        let refused = try await files.run("generate", nil, ["--count", "10", "--out", out], ledger: .none)
        Expect.failure(refused, status: 5, mentioning: [out, "--force"])
        #expect(files.text(of: out) == "keep me\n")
        #expect(files.listing() == ["codes.txt"])

        let forced = try await files.run("generate", nil, ["--count", "10", "--out", out, "--force"], ledger: .none)
        #expect(forced.status == 0, "\(forced)")
        #expect(files.text(of: out)?.split(separator: "\n").count == 10)
        #expect(files.listing() == ["codes.txt"])
    }

    /// `--count` above 100,000,000 used to reach a `Set.reserveCapacity` of every code (a 35 TB
    /// allocation for 10^12, and an abort); now the bound is checked before anything is allocated.
    @Test func plainCountAboveTheMaximumFailsFast() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let out = files.file("codes.txt")
        for count in ["1000000000000", "100000001", String(Int.max)] {
            let result = try await files.run(
                "generate", nil, ["--count", count, "--length", "20", "--seed", "1", "--out", out], ledger: .none,
                peakMemory: CLI.peakMemoryMeasurable)
            Expect.failure(result, status: 2, mentioning: ["--count \(count) is too large", "at most 100,000,000"])
            #expect(!result.stderr.contains("--seed 1: UNSAFE"), "the count is checked first\n\(result)")
            // Nothing sized by the count was allocated (a set of 10^12 codes aborted the process).
            if CLI.peakMemoryMeasurable { #expect((result.peakKilobytes ?? .max) < 100_000, "\(result)") }
        }
        #expect(files.listing().isEmpty, "\(files.listing())")
        // The maximum itself is accepted: its first codes stream out in constant memory (stdout is
        // closed early by `head`, which ends the run with a write error).
        let binary = CLI.binary
        let peakFile = files.file("peak.txt")
        let measure = CLI.peakMemoryMeasurable ? "/usr/bin/time -f %M -o '\(peakFile)' " : ""
        let head = try await Independent.run(
            "/bin/sh", ["-c", "\(measure)'\(binary.path)' codes generate --count 100000000 --length 12 | head -n 3"])
        let lines = head.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.count == 12 }, "\(head.stdout)\(head.stderr)")
        if CLI.peakMemoryMeasurable {
            let peak = files.text(of: peakFile)?.split(separator: "\n").last.flatMap { Int($0) }
            #expect((peak ?? .max) < 100_000, "peak \(String(describing: peak)) KB for --count 100000000")
        }
    }

    /// A batch over Apple's quarterly limit is a validation problem of its field (exit 4), found
    /// before anything is generated or recorded.
    @Test func campaignCountsAboveApplesLimitAreRefused() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(
            CampaignFiles.campaign(
                name: "huge",
                offers: [
                    CampaignFiles.offer(
                        "Huge", oneTimeUse: [CampaignFiles.oneTimeUse(count: 2_000_000)],
                        custom: [CampaignFiles.generated(count: 1_000_000_000_000, length: 20)])
                ]),
            to: "huge.json")
        for command in ["validate", "generate"] {
            let result = try await files.run(command, campaign, peakMemory: CLI.peakMemoryMeasurable)
            // Checked before anything sized by the counts is allocated or drawn.
            if CLI.peakMemoryMeasurable { #expect((result.peakKilobytes ?? .max) < 150_000, "\(result)") }
            Expect.failure(
                result, status: 4,
                mentioning: [
                    "$.offers[0].customCodes[0].generate.count: count is 1,000,000,000,000",
                    "$.offers[0].oneTimeUseCodes[0].count: count is 2,000,000", "limit of 1,000,000 codes",
                ])
        }
    }

    static let timeAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

    /// Plain codes stream in constant memory: the peak resident size does not grow with the count
    /// (before, with a set of every code drawn, a release build peaked at 60 MB for 1,000,000 codes,
    /// 93 MB for 3,000,000 and 291 MB for 10,000,000).
    @Test(
        .enabled(
            if: timeAvailable, "SKIPPED: GNU time (/usr/bin/time) is missing, so peak memory is not measured"))
    func plainCodesStreamInConstantMemory() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let binary = CLI.binary
        func peakKilobytes(count: Int) async throws -> Int {
            let out = files.file("codes-\(count).txt")
            let run = try await Independent.run(
                "/usr/bin/time",
                ["-f", "%M", binary.path, "codes", "generate", "--count", "\(count)", "--length", "12", "--out", out])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let lines = try #require(files.text(of: out)).split(separator: "\n")
            #expect(lines.count == count && Set(lines).count == count, "codes repeat")
            return Int(run.stderr.split(separator: "\n").last ?? "") ?? .max
        }
        // The set took about 35 MB more for 1,000,000 codes than for 1,000.
        let small = try await peakKilobytes(count: 1000)
        let large = try await peakKilobytes(count: 1_000_000)
        #expect(large < 100_000, "1,000,000 codes: peak \(large) KB")
        #expect(large - small < 15_000, "peak \(small) KB for 1,000 codes, \(large) KB for 1,000,000")
    }

    @Test func plainModeUsageErrorsExit2() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        await Expect.failure(
            try files.run("generate", nil, ["--length", "8"], ledger: .none), status: 2, mentioning: ["--count"])
        await Expect.failure(
            try files.run("generate", nil, ["--count", "0"], ledger: .none), status: 2, mentioning: ["--count"])
        await Expect.failure(
            try files.run("generate", CampaignFiles.example, ["--count", "5"]), status: 2, mentioning: ["--count"])
        #expect(files.listing().isEmpty, "\(files.listing())")
    }
}
