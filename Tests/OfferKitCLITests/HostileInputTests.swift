import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport
@testable import OfferSigning

/// Inputs a hostile or careless user gives the CLI: extreme numbers, huge and endless inputs,
/// pipes, bytes that are not UTF-8. Each is a clear error with its documented exit code; none
/// crashes (a crash would exit 132 or 134) or reads without bound.
@Suite("Hostile CLI input")
struct HostileInputTests {
    static let sign = ["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o"] + DemoKey.flags

    /// Runs `executable arguments…` (stdin from /dev/null) and returns its status, stdout and
    /// stderr; the outputs go through files, so no pipe can fill up.
    static func spawn(_ executable: String, _ arguments: [String]) async throws -> (Int32, String, String) {
        let process = try ChildProcess(URL(fileURLWithPath: executable), arguments)
        let ending = await process.ending()
        return (ending.rawStatus, process.stdout, process.stderr)
    }

    /// Runs a shell script whose `$0` is the offerkit executable (for redirections, FIFOs, `<(…)`
    /// and argument bytes that Swift strings cannot hold).
    static func shell(_ script: String, shell: String = "/bin/sh") async throws -> (Int32, String, String) {
        try await spawn(shell, ["-c", script, CLI.binary.path])
    }

    @Test(
        "--iat: Int64.max, near-max, negative and above 2^53 are refused naming iat and the value",
        arguments: [
            "9223372036854775807", "9223372036854775296", "-1", "-9223372036854775808", "9007199254740993", "0",
            "946684799",
        ])
    func extremeIssuedAt(value: String) async throws {
        let result = try await CLI.run(Self.sign + ["--iat", value])
        Expect.failure(result, status: 4, mentioning: ["iat", "found \(value)", "2000-01-01"])
    }

    @Test("--iat at the range's ends signs exactly that value")
    func issuedAtRangeEnds() async throws {
        for value in [ClaimTime.earliestSeconds, ClaimTime.latestSeconds] {
            let result = try await CLI.run(Self.sign + ["--iat", String(value), "--format", "json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.json?["issuedAt"]?.int == value, "\(result)")
        }
    }

    @Test("a legacy --timestamp in seconds is refused, naming milliseconds")
    func legacyTimestampInSeconds() async throws {
        let result = try await CLI.run(
            ["sign", "promotional-offer-v1", "--product-id", "p", "--offer-id", "o", "--timestamp", "1700000000"]
                + DemoKey.flags)
        Expect.failure(result, status: 4, mentioning: ["timestamp", "milliseconds", "looks like seconds"])
    }

    @Test("negative numbers reach their own checks instead of 'Missing value'")
    func negativeNumbersAreValues() async throws {
        let lifetime = try await CLI.run(["token", "server-api", "--lifetime", "-5"] + DemoKey.flags)
        Expect.failure(lifetime, status: 4, mentioning: ["lifetime", "found -5"])
        let timestamp = try await CLI.run(
            [
                "verify", "--legacy-signature", "MEUCIQ==", "--product-id", "p", "--offer-id", "o", "--nonce",
                Fixed.nonce,
                "--timestamp", "-1", "--public-key", DemoKey.publicKeyPath, "--key-id", DemoKey.keyId, "--bundle-id",
                DemoKey.bundleId,
            ])
        Expect.failure(timestamp, status: 1, mentioning: ["timestamp", "found -1"])
        let count = try await CLI.run(["codes", "generate", "--count", "-3"])
        #expect(count.status == 2 && !count.stderr.contains("Missing value"), "\(count)")
    }

    @Test("batch: a line with an extreme number gets its own error line; the lines around it are signed")
    func batchKeepsItsGoodLines() async throws {
        let lines = [
            #"{"id":1,"type":"promotional-offer","productId":"p","offerIdentifier":"o"}"#,
            #"{"id":2,"type":"promotional-offer","productId":"p","offerIdentifier":"o","iat":9223372036854775807}"#,
            #"{"id":3,"type":"promotional-offer","productId":"p","offerIdentifier":"o"}"#,
            #"{"id":4,"type":"promotional-offer-v1","productId":"p","offerIdentifier":"o","timestamp":-9223372036854775808}"#,
            #"{"id":5,"type":"server-api-token","lifetime":9223372036854775807}"#,
            #"{"id":6,"type":"promotional-offer","productId":"p","offerIdentifier":"o"}"#,
        ]
        let result = try await CLI.run(["batch"] + DemoKey.flags, stdin: Data(lines.joined(separator: "\n").utf8))
        #expect(result.status == 4, "\(result)")
        let objects = result.jsonLines
        #expect(objects.count == 6, "\(result)")
        for (index, object) in objects.enumerated() {
            let failed = object?["error"] != nil
            #expect(failed == [1, 3, 4].contains(index), "line \(index + 1): \(result)")
        }
        #expect(objects[1]?["error"]?["field"]?.string == "iat")
    }

    @Test("batch: an endless line is one line-too-long error, read in bounded memory")
    func batchEndlessLine() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        var input = Data(#"{"type":"promotional-offer","productId":"p","offerIdentifier":"o"}"#.utf8)
        input.append(0x0A)
        input.append(Data(repeating: UInt8(ascii: "x"), count: BatchSigner.maximumLineBytes + 3_000_000))
        input.append(0x0A)
        input.append(Data(#"{"type":"promotional-offer","productId":"p","offerIdentifier":"o"}"#.utf8))
        let path = folder.file("lines.jsonl")
        try input.write(to: URL(fileURLWithPath: path))
        let result = try await CLI.run(["batch", "--input", path] + DemoKey.flags)
        #expect(result.status == 4, "\(result.stderr)")
        let objects = result.jsonLines
        #expect(objects.count == 3)
        #expect(objects[0]?["jws"] != nil && objects[2]?["jws"] != nil)
        #expect(objects[1]?["error"]?["code"]?.string == "line-too-long")
    }

    @Test("batch: many lines just under 4 MiB are processed in bounded memory")
    func batchManyLongLines() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = folder.file("long-lines.jsonl")
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        var line = Data(repeating: UInt8(ascii: "x"), count: BatchSigner.maximumLineBytes - 16)
        line.append(0x0A)
        for _ in 0..<120 { try handle.write(contentsOf: line) }  // 480 MiB in all
        try handle.close()
        let binary = CLI.binary.path
        let (status, _, stderr) = try await Self.spawn(
            "/usr/bin/time", ["-f", "peak-kib %M", binary, "batch", "--input", path, "--jobs", "1"] + DemoKey.flags)
        #expect(status == 4, "\(stderr)")
        let peak = stderr.split(separator: "\n").last { $0.hasPrefix("peak-kib ") }.flatMap { Int($0.dropFirst(9)) }
        // Kept whole, the lines would take 480 MiB; chunks of at most 32 MiB keep it far below.
        #expect(try #require(peak, "\(stderr)") < 250_000, "peak \(peak ?? 0) KiB")
    }

    @Test("--key-file -: an endless stdin is refused after 16 KiB, as a key problem")
    func keyFromEndlessStandardInput() async throws {
        let (status, _, stderr) = try await Self.shell(
            #"exec "$0" sign promotional-offer --product-id p --offer-id o --key-file - --key-id DEMOKEY123 --issuer-id 98802e6e-bab8-4f06-8c88-a2582cda3c9c --bundle-id com.example.offerkit.demo < /dev/zero"#
        )
        #expect(status == 3, "\(stderr)")
        #expect(stderr.contains("larger than 16 KiB"), "\(stderr)")
    }

    @Test("a 20 MB key file is refused without reading it")
    func hugeKeyFile() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = folder.file("SubscriptionKey_DEMOKEY123.p8")
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 20_000_000)
        try handle.close()
        let result = try await CLI.run(
            [
                "sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--key-file", path, "--issuer-id",
                DemoKey.issuerId, "--bundle-id", DemoKey.bundleId,
            ])
        Expect.failure(result, status: 3, mentioning: ["larger than 16 KiB"])
    }

    @Test("keys from a FIFO, /dev/stdin and a shell's <(…) are read")
    func keysFromPipes() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let fifo = folder.file("key.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let identity = "--key-id DEMOKEY123 --issuer-id \(DemoKey.issuerId) --bundle-id \(DemoKey.bundleId)"
        let scripts = [
            "cat '\(DemoKey.keyPath)' > '\(fifo)' & exec \"$0\" sign promotional-offer --product-id p --offer-id o --key-file '\(fifo)' \(identity)",
            "exec \"$0\" sign promotional-offer --product-id p --offer-id o --key-file /dev/stdin \(identity) < '\(DemoKey.keyPath)'",
        ]
        for script in scripts {
            let (status, stdout, stderr) = try await Self.shell(script)
            #expect(status == 0, "\(script)\n\(stderr)")
            #expect(stdout.split(separator: ".").count == 3, "\(script)\n\(stdout)")
        }
        let substitution =
            "exec \"$0\" sign promotional-offer --product-id p --offer-id o --key-file <(cat '\(DemoKey.keyPath)') \(identity)"
        let (status, _, stderr) = try await Self.shell(substitution, shell: "/bin/bash")
        #expect(status == 0, "--key-file <(cat key.p8)\n\(stderr)")
    }

    @Test("an Advanced Commerce request file over 1 MiB is refused, naming the limit")
    func hugeRequestFile() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = try folder.write(String(repeating: " ", count: (1 << 20) + 1), to: "request.json")
        let result = try await CLI.run(["sign", "advanced-commerce", "--request", path] + DemoKey.flags)
        Expect.failure(result, status: 4, mentioning: [path, "larger than 1 MiB", "Advanced Commerce request"])
    }

    @Test("an Advanced Commerce price of 1e-400 is refused, naming the field and the value")
    func fractionalPriceSpelledAsExponent() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let request =
            #"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"7b3c6a1e-2f4d-4e8a-9c1b-5d6e7f8a9b0c"},"currency":"USD","storefront":"USA","taxCode":"C003-00-2","item":{"SKU":"sku","description":"d","displayName":"n","price":1e-400}}"#
        let path = try folder.write(request, to: "request.json")
        let result = try await CLI.run(["sign", "advanced-commerce", "--request", path] + DemoKey.flags)
        Expect.failure(result, status: 4, mentioning: ["item.price", "1e-400"])
    }

    @Test("an argument that is not UTF-8 is refused, naming its flag, and is not echoed")
    func argumentNotUTF8() async throws {
        let (status, stdout, stderr) = try await Self.shell(
            #"exec "$0" sign promotional-offer --product-id p --offer-id "$(printf 'A\377B')""#)
        #expect(status == 2, "\(stderr)")
        #expect(stdout.isEmpty)
        #expect(stderr.contains("--offer-id") && stderr.contains("not valid UTF-8"), "\(stderr)")
        #expect(!stderr.contains("\u{FFFD}"))
    }

    @Test("--config naming a directory says it is a directory")
    func configIsADirectory() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let result = try await CLI.run(
            ["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--config", folder.url.path])
        Expect.failure(result, status: 3, mentioning: ["config file", "is a directory"])
    }

    @Test("verify: a correctly signed token with iat −2^63 and exp 2^63−1 fails verification (exit 1)")
    func verifyExtremeClaims() async throws {
        let payloads = [
            #"{"iss":"\#(DemoKey.issuerId)","iat":-9223372036854775808,"exp":9223372036854775807,"aud":"appstoreconnect-v1","bid":"\#(DemoKey.bundleId)"}"#,
            #"{"iss":"\#(DemoKey.issuerId)","iat":-9223372036854775808,"aud":"promotional-offer","bid":"\#(DemoKey.bundleId)","nonce":"\#(Fixed.nonce)","productId":"p","offerIdentifier":"o"}"#,
        ]
        for payload in payloads {
            let jws = try JWSEncoder(key: DemoKey.key).sign(payload: Array(payload.utf8))
            let result = try await CLI.run(["verify", "--jws", jws] + DemoKey.flags)
            Expect.failure(result, status: 1, mentioning: ["iat", "-9223372036854775808"])
        }
    }

    @Test("codes validate: a generated length of Int.max with a prefix is a campaign problem, not a crash")
    func validateHugeLength() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let campaign = """
            {"name":"gems-launch","app":{"bundleId":"com.example.offerkit.demo","appAppleId":"1234567890"},
             "offers":[{"referenceName":"Gem pack launch",
               "product":{"id":"6450000009","productId":"com.example.offerkit.gems100","type":"CONSUMABLE"},
               "paymentMode":"ONE_TIME","customerEligibilities":["NON_SPENDER"],"prices":[{"territory":"USA","free":true}],
               "customCodes":[{"redemptionLimit":1,"generate":{"count":10,"prefix":"A","length":9223372036854775807}}]}]}
            """
        let path = try folder.write(campaign, to: "campaign.json")
        let result = try await CLI.run(["codes", "validate", path, "--no-ledger"])
        Expect.failure(result, status: 4, mentioning: ["generate.length", "at most 63"])
    }

    @Test("codes validate -: an endless stdin is refused at 16 MiB")
    func validateEndlessStandardInput() async throws {
        let (status, stdout, stderr) = try await Self.shell(#"exec "$0" codes validate - --no-ledger < /dev/zero"#)
        #expect(status == 4, "\(stderr)")
        #expect(stdout.isEmpty)
        #expect(stderr.contains("stdin is larger than 16 MiB"), "\(stderr)")
    }

    @Test("codes generate: --length Int.max with a prefix is a usage-level refusal, not a crash")
    func generateHugeLength() async throws {
        let result = try await CLI.run([
            "codes", "generate", "--count", "10", "--prefix", "A", "--length", "9223372036854775807",
        ])
        Expect.failure(result, status: 4, mentioning: ["length", "at most 63"])
    }
}
