import Foundation
import Testing

@testable import CLITestSupport

/// Every input is bounded, and nothing blocks forever on a FIFO: a path that must be a regular
/// file is refused unopened, a FIFO where a stream is allowed waits at most 5 s for its writer,
/// `batch` bounds its lines.
@Suite("offerkit: bounded inputs and FIFOs", .processRuns)
struct BoundedInputTests {
    /// A folder with a FIFO nobody writes to, for `body`.
    static func withFIFO(_ name: String, _ body: (CampaignFiles, String) async throws -> Void) async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let fifo = files.file(name)
        #expect(mkfifo(fifo, 0o600) == 0)
        try await body(files, fifo)
    }

    @Test("a FIFO as a campaign, --recipients, --csv or --config is refused without being opened")
    func fifoWhereAFileIsNeeded() async throws {
        try await Self.withFIFO("input.fifo") { files, fifo in
            await #expect(try files.run("generate", CampaignFiles.example).status == 0)
            let offer = ["--offer", "Spring half price, 3 months"]
            let runs: [(CLIResult, Int32)] = [
                (try await files.run("validate", fifo), 5),
                (try await files.run("status", fifo), 5),
                (try await files.run("export", CampaignFiles.example, offer + ["--recipients", fifo]), 5),
                (
                    try await files.run(
                        "import", CampaignFiles.example, ["--offer", "Gem pack launch", "--batch", "1", "--csv", fifo]),
                    5
                ),
                (
                    try await CLI.run([
                        "sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o", "--config", fifo,
                    ]), 3
                ),
                (try await CLI.run(["serve", "--config", fifo, "--port", "0", "--no-auth"]), 3),
            ]
            for (result, status) in runs {
                Expect.failure(result, status: status, mentioning: [fifo, "FIFO (named pipe), not a regular file"])
            }
        }
    }

    @Test("devices where a file is needed: /dev/zero and /dev/urandom as --recipients are refused at once")
    func devicesAsRecipients() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        await #expect(try files.run("generate", CampaignFiles.example).status == 0)
        for device in ["/dev/zero", "/dev/urandom"] {
            let result = try await files.run(
                "export", CampaignFiles.example,
                ["--offer", "Spring half price, 3 months", "--recipients", device], peakMemory: CLI.peakMemoryMeasurable
            )
            Expect.failure(result, status: 5, mentioning: [device, "character device, not a regular file"])
            if let peak = result.peakKilobytes { #expect(peak < 200_000, "peak \(peak) KB") }
        }
    }

    @Test("a key from a FIFO nobody writes to is refused after the writer wait, naming it")
    func keyFIFOWithoutWriter() async throws {
        try await Self.withFIFO("key.p8") { _, fifo in
            let result = try await CLI.run(
                [
                    "sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o", "--key-file", fifo,
                    "--key-id", DemoKey.keyId, "--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId,
                ])
            Expect.failure(result, status: 3, mentioning: ["no program opened for writing within 5 s"])
        }
    }

    @Test("batch --input: a FIFO nobody writes to is refused; /dev/zero ends at 64 MiB without a newline")
    func batchInputs() async throws {
        try await Self.withFIFO("lines.fifo") { _, fifo in
            let result = try await CLI.run(["batch", "--input", fifo] + DemoKey.flags)
            Expect.failure(result, status: 5, mentioning: [fifo, "no program opened for writing within 5 s"])
        }
        let zero = try await CLI.run(
            ["batch", "--input", "/dev/zero"] + DemoKey.flags, peakMemory: CLI.peakMemoryMeasurable)
        #expect(zero.status == 4, "\(zero)")
        #expect(zero.stderr.contains("line 1 of /dev/zero runs past 64 MiB without a newline"), "\(zero)")
        if let peak = zero.peakKilobytes { #expect(peak < 200_000, "peak \(peak) KB") }
    }

    @Test("batch reads at most 10,000,000 lines")
    func batchLineLimit() async throws {
        let exactly = try await CLI.run(["batch"] + DemoKey.flags, stdin: Data(repeating: 0x0A, count: 10_000_000))
        #expect(exactly.status == 0 && exactly.stdout.isEmpty, "\(exactly)")
        let over = try await CLI.run(["batch"] + DemoKey.flags, stdin: Data(repeating: 0x0A, count: 10_000_001))
        #expect(over.status == 4, "\(over)")
        #expect(over.stderr.contains("stdin has more than 10,000,000 lines, the most one batch reads"), "\(over)")
    }

    @Test("--today -0001-01-01 names --today and the format, not 'Missing value'")
    func negativeToday() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        for day in ["-0001-01-01", "-1"] {
            let result = try await CLI.run(
                ["codes", "validate", CampaignFiles.example, "--no-ledger", "--today", day], cwd: files.folder.url)
            Expect.failure(result, status: 2, mentioning: ["--today \"\(day)\" is not a day", "YYYY-MM-DD"])
            #expect(!result.stderr.contains("Missing value"), "\(result)")
        }
    }
}
