import Foundation
import OfferSigning
import Testing

/// Every stdout and stderr the CLI produced in this test process, and the private keys whose
/// material must never appear in them.
///
/// Each run is scanned against every known secret when it is recorded, and each secret is
/// scanned against every recorded run when it is registered, so the check does not depend on
/// the order in which tests run. `PrivateKeyLeakTests` also scans the whole log.
final class OutputLog: @unchecked Sendable {
    static let shared: OutputLog = {
        let log = OutputLog()
        log.registerSecret(
            pem: DemoKey.privatePEM, name: "the demo key (keys-example/SubscriptionKey_DEMOKEY123.p8)",
            publicMaterial: [OutputLog.base64Body(ofPEM: DemoKey.key.publicKeyPEM), DemoKey.key.publicJWK])
        return log
    }()

    struct Secret {
        let name: String
        /// Every 16-byte window of the key's base64 body that is not also public material.
        let windows: Set<Window>
    }

    /// 16 ASCII bytes packed into two words, so scanning large outputs stays cheap.
    struct Window: Hashable {
        let high: UInt64
        let low: UInt64

        init(_ bytes: ArraySlice<UInt8>) {
            var high: UInt64 = 0
            var low: UInt64 = 0
            var index = bytes.startIndex
            for _ in 0..<8 {
                high = high << 8 | UInt64(bytes[index])
                index += 1
            }
            for _ in 0..<8 {
                low = low << 8 | UInt64(bytes[index])
                index += 1
            }
            self.high = high
            self.low = low
        }

        init(high: UInt64, low: UInt64) {
            self.high = high
            self.low = low
        }
    }

    static let windowLength = 16

    private let lock = NSLock()
    private var runs: [CLIResult] = []
    private var secrets: [Secret] = []
    /// Scans for every secret in ``secrets`` (made again when one is registered).
    private var scanner = LeakScanner([])

    /// The base64 body of a PEM document: everything between the BEGIN and END lines, joined.
    static func base64Body(ofPEM pem: String) -> String {
        pem.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("-----") }
            .joined()
    }

    static func windows(of text: String) -> Set<Window> {
        let bytes = Array(text.utf8)
        guard bytes.count >= windowLength else { return [] }
        var result: Set<Window> = []
        for start in 0...(bytes.count - windowLength) {
            result.insert(Window(bytes[start..<(start + windowLength)]))
        }
        return result
    }

    /// Windows every P-256 PKCS#8 body shares (the fixed ASN.1 prefix `MIGHAgEAMBMGByqGSM49…`):
    /// found by comparing with an unrelated, freshly generated key; they carry no secret.
    static let structuralWindows: Set<Window> = {
        guard let reference = try? SigningKey.generate(keyId: "REFERENCE1").privateKeyPKCS8PEM else { return [] }
        return windows(of: base64Body(ofPEM: reference))
    }()

    /// Registers a private key (PEM). Windows that also occur in `publicMaterial` (the public
    /// key's PEM body or JWK coordinates, which the CLI may print) or in every P-256 key's
    /// encoding are not secret.
    func registerSecret(pem: String, name: String, publicMaterial: [String] = []) {
        let body = Self.base64Body(ofPEM: pem)
        precondition(body.count >= 100, "\(name) does not look like a PEM private key")
        var publicWindows = publicMaterial.reduce(into: Set<Window>()) { $0.formUnion(Self.windows(of: $1)) }
        publicWindows.formUnion(Self.structuralWindows)
        let secret = Secret(name: name, windows: Self.windows(of: body).subtracting(publicWindows))
        let recorded = lock.withLock {
            secrets.append(secret)
            scanner = LeakScanner(secrets)
            return runs
        }
        let alone = LeakScanner([secret])
        for run in recorded { Self.check(run, with: alone) }
    }

    func record(_ run: CLIResult) {
        let scanner = lock.withLock {
            runs.append(run)
            return self.scanner
        }
        Self.check(run, with: scanner)
    }

    var allRuns: [CLIResult] { lock.withLock { runs } }
    var allSecrets: [Secret] { lock.withLock { secrets } }

    /// The first leaked window of `secret` in `text` (also across line breaks), if any.
    static func leak(of secret: Secret, in text: String) -> String? {
        LeakScanner([secret]).firstLeaks(in: text)[0]
    }

    /// Records an issue for each of the scanner's secrets that `run`'s stdout or stderr leaks.
    @discardableResult
    static func check(_ run: CLIResult, with scanner: LeakScanner) -> Bool {
        var clean = true
        let leaks = [("stdout", scanner.firstLeaks(in: run.stdout)), ("stderr", scanner.firstLeaks(in: run.stderr))]
        for (index, secret) in scanner.secrets.enumerated() {
            for (stream, found) in leaks {
                if let window = found[index] {
                    clean = false
                    let command = "offerkit " + run.arguments.joined(separator: " ")
                    let message =
                        "PRIVATE KEY MATERIAL LEAKED: \(stream) of `\(command)` contains \(window.count) "
                        + "characters (\(window.prefix(4))…) of \(secret.name)"
                    Issue.record(Comment(rawValue: message))
                }
            }
        }
        return clean
    }
}
