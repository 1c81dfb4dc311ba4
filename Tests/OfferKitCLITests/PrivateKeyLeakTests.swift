import Foundation
import InteropSupport
import OfferSigning
import Testing

@testable import CLITestSupport

/// No stdout or stderr of any run may contain private-key material: no 16-character window of
/// the demo key's base64 body, nor of any key `key generate` wrote.
///
/// Every run is scanned as it finishes (``OutputLog``); the tests here feed key material to the
/// CLI where it does not belong, where an error message would be most tempted to quote it.
@Suite("private key material never appears in output")
struct PrivateKeyLeakTests {
    static let identity = ["--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId]

    /// Runs and checks this run's output against every known secret (it is also in the log).
    @discardableResult
    static func runClean(
        _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIResult {
        let result = try await CLI.run(arguments, environment: environment, stdin: stdin)
        let secrets = OutputLog.shared.allSecrets
        let leaks = LeakScanner(secrets).firstLeaks(in: result.stdout + "\n" + result.stderr)
        for (index, secret) in secrets.enumerated() {
            #expect(
                leaks[index] == nil, "\(secret.name) leaked by `offerkit \(arguments.joined(separator: " "))`",
                sourceLocation: sourceLocation
            )
        }
        return result
    }

    @Test func theScannerFindsAPlantedLeak() {
        let demo = OutputLog.shared.allSecrets[0]
        let body = DemoKey.base64Body
        let middle = body.index(body.startIndex, offsetBy: 60)
        let planted = "error: " + body[middle...].prefix(16) + " trailing"
        #expect(OutputLog.leak(of: demo, in: planted) != nil)
        // Across a line break too.
        let split = "x " + body[middle...].prefix(8) + "\n" + body[middle...].dropFirst(8).prefix(8)
        #expect(OutputLog.leak(of: demo, in: split) != nil)
        // The public key is not secret.
        #expect(OutputLog.leak(of: demo, in: DemoKey.key.publicKeyPEM + DemoKey.key.publicJWK) == nil)
        #expect(OutputLog.leak(of: demo, in: "nothing here") == nil)
        // Nor is the ASN.1 prefix every P-256 PKCS#8 key starts with.
        #expect(OutputLog.leak(of: demo, in: "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg") == nil)
        #expect(body.hasPrefix("MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg"))
    }

    /// The one-pass scanner finds, for every secret, the window a window-by-window search of the
    /// text and of the text without whitespace finds: planted windows, split windows, junk around.
    @Test func theScannerFindsWhatAWindowByWindowSearchFinds() throws {
        let other = try SigningKey.generate(keyId: "LEAKSCAN01")  // new each run: a failure prints its text
        let log = OutputLog()
        log.registerSecret(pem: DemoKey.privatePEM, name: "demo")
        log.registerSecret(pem: other.privateKeyPKCS8PEM, name: "other")
        let secrets = log.allSecrets
        let scanner = LeakScanner(secrets)
        var random = SplitMix64(seed: 2026)
        let junk = Array("ABCxyz0189+/= \n\t\r,.:-_\"{}é".utf8)
        // Sorted, so that the seed replays the same texts (a set's order changes from process to process).
        let windows = secrets.map { $0.windows.sorted { ($0.high, $0.low) < ($1.high, $1.low) } }
        var leaked = 0
        for trial in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                if Bool.random(using: &random) {
                    let some = windows[Int.random(in: 0..<windows.count, using: &random)]
                    let window = some[Int.random(in: 0..<some.count, using: &random)]
                    var planted = Self.bytes(of: window)
                    // A part of it, or the window broken by whitespace.
                    if Bool.random(using: &random) {
                        planted = Array(planted.prefix(Int.random(in: 4...16, using: &random)))
                    }
                    if Bool.random(using: &random) {
                        planted.insert(10, at: Int.random(in: 1...planted.count - 1, using: &random))
                    }
                    bytes += planted
                } else {
                    for _ in 0..<Int.random(in: 0...20, using: &random) {
                        bytes.append(junk.randomElement(using: &random)!)
                    }
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let found = scanner.firstLeaks(in: text)
            leaked += found.count
            for (index, secret) in secrets.enumerated() {
                #expect(
                    found[index] == Self.searchWindowByWindow(secret, in: text),
                    "trial \(trial): \(text.debugDescription)")
            }
        }
        #expect((100...500).contains(leaked), "\(leaked) leaks in 300 texts: the texts should hold some, not all")
    }

    /// Every window of the text, then of the text without whitespace, looked up one by one.
    static func searchWindowByWindow(_ secret: OutputLog.Secret, in text: String) -> String? {
        let raw = Array(text.utf8)
        let joined = raw.filter { ![9, 10, 13, 32].contains($0) }
        for bytes in [raw, joined] where bytes.count >= OutputLog.windowLength {
            for start in 0...(bytes.count - OutputLog.windowLength)
            where secret.windows.contains(OutputLog.Window(bytes[start..<(start + OutputLog.windowLength)])) {
                return String(decoding: bytes[start..<(start + OutputLog.windowLength)], as: UTF8.self)
            }
        }
        return nil
    }

    static func bytes(of window: OutputLog.Window) -> [UInt8] {
        [window.high, window.low].flatMap { word in
            stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: word >> UInt64($0)) }
        }
    }

    @Test func keyMaterialInTheWrongPlaceIsNotEchoed() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let body = DemoKey.base64Body
        let keyCopy = try folder.copyOfDemoKey(named: "key.txt", mode: 0o600)

        // A damaged key: one character dropped, or a wrong PEM label.
        var damaged = body
        damaged.remove(at: damaged.index(damaged.startIndex, offsetBy: 70))
        let damagedResult = try await Self.runClean(
            ["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--key-id", DemoKey.keyId]
                + Self.identity, environment: ["OFFERKIT_KEY": damaged])
        #expect(damagedResult.status == 3, "\(damagedResult)")
        let relabeled = DemoKey.privatePEM.replacingOccurrences(of: "PRIVATE KEY", with: "PUBLIC KEY")
        let relabeledResult = try await Self.runClean(
            ["key", "inspect", "--key-file", "-", "--key-id", DemoKey.keyId], stdin: Data(relabeled.utf8))
        #expect(relabeledResult.status == 3, "\(relabeledResult)")
        let truncated = String(DemoKey.privatePEM.prefix(120))
        try await Self.runClean(
            ["key", "inspect", "--key-env", "SOME_KEY", "--key-id", DemoKey.keyId], environment: ["SOME_KEY": truncated]
        )

        // A good key with a bad key ID, issuer or bundle.
        try await Self.runClean(
            ["token", "server-api", "--key-id", "bad"] + Self.identity, environment: ["OFFERKIT_KEY": body])
        try await Self.runClean(
            ["token", "server-api", "--key-id", DemoKey.keyId, "--issuer-id", "x", "--bundle-id", DemoKey.bundleId],
            environment: ["OFFERKIT_KEY": DemoKey.privatePEM])

        // The private key where a JWS, a request, a public key, a signature or JSON Lines belong.
        let asJWS = try await Self.runClean(["verify", "--jws-file", keyCopy] + DemoKey.flags)
        #expect(asJWS.status != 0)
        try await Self.runClean(["verify", "--jws", body] + DemoKey.flags)
        try await Self.runClean(["verify", "--jws", body + "." + body + "." + body] + DemoKey.flags)
        let asRequest = try await Self.runClean(["sign", "advanced-commerce", "--request", keyCopy] + DemoKey.flags)
        #expect(asRequest.status == 4, "\(asRequest)")
        try await Self.runClean(
            ["sign", "advanced-commerce", "--request", "-"] + DemoKey.flags, stdin: Data(body.utf8))
        let asPublicKey = try await Self.runClean(
            ["verify", "--jws", "a.b.c", "--public-key", DemoKey.keyPath, "--format", "json"])
        #expect(asPublicKey.status != 0)
        try await Self.runClean(
            [
                "verify", "--legacy-signature", body, "--product-id", "p", "--offer-id", "o", "--nonce", Fixed.nonce,
                "--timestamp", "1",
            ] + DemoKey.flags)
        let asBatch = try await Self.runClean(["batch", "--input", keyCopy] + DemoKey.flags)
        #expect(asBatch.status == 4, "\(asBatch)")
        try await Self.runClean(
            ["batch"] + DemoKey.flags,
            stdin: Data(
                #"{"type":"promotional-offer","productId":"\#(body)","offerIdentifier":""}"#.utf8))
        try await Self.runClean(["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--nonce", body])
        // A typed option's bad value (the argument parser's own message).
        try await Self.runClean(["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--iat", body])

        // The key in every accepted form, with output in both formats.
        for format in ["text", "json"] {
            try await Self.runClean(
                ["key", "inspect", "--format", format, "--key-file", "-", "--key-id", DemoKey.keyId],
                stdin: Data(DemoKey.privatePEM.utf8))
            try await Self.runClean(
                ["key", "inspect", "--format", format, "--key-id", DemoKey.keyId],
                environment: ["OFFERKIT_KEY": body])
            try await Self.runClean(["token", "server-api", "--format", format] + DemoKey.flags)
        }
    }

    @Test func generatedKeysDoNotLeakThroughTheCommandsThatUseThem() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let generated = try await Self.runClean(["key", "generate", "--out", folder.path, "--key-id", "LEAKTEST01"])
        #expect(generated.status == 0, "\(generated)")
        let path = folder.file("SubscriptionKey_LEAKTEST01.p8")
        let pem = try String(contentsOfFile: path, encoding: .utf8)
        let key = try SigningKey(pem: pem, keyId: "LEAKTEST01")
        OutputLog.shared.registerSecret(
            pem: pem, name: "the generated key LEAKTEST01",
            publicMaterial: [OutputLog.base64Body(ofPEM: key.publicKeyPEM), key.publicJWK])
        try await Self.runClean(["key", "inspect", "--key-file", path, "--format", "json"])
        try await Self.runClean(["key", "inspect", "--key-file", path])
        try await Self.runClean(["key", "generate", "--out", folder.path, "--key-id", "LEAKTEST01"])  // refused
        try await Self.runClean(
            ["sign", "promotional-offer-v1", "--product-id", "p", "--offer-id", "o", "--key-file", path]
                + Self.identity)
        try await Self.runClean(["verify", "--jws-file", path, "--key-file", path] + Self.identity)
    }

    /// Scans everything the suite has recorded so far against every key, once more.
    @Test func everythingRecordedSoFarIsClean() {
        let runs = OutputLog.shared.allRuns
        let secrets = OutputLog.shared.allSecrets
        #expect(!secrets.isEmpty)
        let scanner = LeakScanner(secrets)
        for run in runs { OutputLog.check(run, with: scanner) }
    }
}
