import Foundation
import OfferSigning
import Testing

/// The demo key and identifiers from `keys-example/`, and ways to hand them to the CLI.
enum DemoKey {
    static let keyId = "DEMOKEY123"
    static let issuerId = "98802e6e-bab8-4f06-8c88-a2582cda3c9c"
    static let bundleId = "com.example.offerkit.demo"
    static let folder = CLI.packageRoot.appendingPathComponent("keys-example")
    static let keyPath = folder.appendingPathComponent("SubscriptionKey_DEMOKEY123.p8").path
    static let publicKeyPath = folder.appendingPathComponent("SubscriptionKey_DEMOKEY123.pub.pem").path
    static let configPath = folder.appendingPathComponent("config.json").path
    /// Test keys made with openssl for the library's tests (read only).
    static let fixtureKeys = CLI.packageRoot.appendingPathComponent("Tests/OfferSigningTests/Fixtures/keys")

    static let privatePEM: String = {
        guard let text = try? String(contentsOfFile: keyPath, encoding: .utf8) else {
            fatalError("cannot read the demo key at \(keyPath)")
        }
        return text
    }()

    /// The PEM's base64 body on one line (what people put in OFFERKIT_KEY).
    static var base64Body: String { OutputLog.base64Body(ofPEM: privatePEM) }

    static let key: SigningKey = {
        do {
            return try SigningKey(contentsOfFile: keyPath, keyId: keyId)
        } catch {
            fatalError("demo key in keys-example/ does not load: \(error)")
        }
    }()

    /// A copy of the demo key in its own temporary folder, mode 0600 (no permission warning).
    static let privateCopy: String = {
        do {
            return try TempDir.make().copyOfDemoKey(named: "SubscriptionKey_DEMOKEY123.p8", mode: 0o600)
        } catch {
            fatalError("cannot copy the demo key: \(error)")
        }
    }()

    /// Every credential flag for the demo key (a 0600 copy), issuer and bundle.
    static var flags: [String] {
        ["--key-file", privateCopy, "--key-id", keyId, "--issuer-id", issuerId, "--bundle-id", bundleId]
    }

    /// ``flags`` without `flag` and its value (`--issuer-id` for a legacy signature, which signs
    /// none; `--bundle-id` for an App Store Connect token, which names no app).
    static func flags(without flag: String) -> [String] {
        var flags = self.flags
        if let index = flags.firstIndex(of: flag) { flags.removeSubrange(index...index + 1) }
        return flags
    }

    /// The key alone (a 0600 copy) and its key ID, for commands that take no issuer or bundle ID
    /// (`key inspect`, an individual App Store Connect API key).
    static var keyFlags: [String] { ["--key-file", privateCopy, "--key-id", keyId] }

    /// The demo key as a team's App Store Connect API key: the key, its key ID and the issuer ID
    /// (no bundle ID: `token connect-api` and the `codes` commands that call App Store Connect take none).
    static var connectFlags: [String] { keyFlags + ["--issuer-id", issuerId] }

    /// The same credentials in the environment.
    static var environment: [String: String] {
        [
            "OFFERKIT_KEY_FILE": privateCopy, "OFFERKIT_KEY_ID": keyId, "OFFERKIT_ISSUER_ID": issuerId,
            "OFFERKIT_BUNDLE_ID": bundleId,
        ]
    }

    static func signer() throws -> OfferSigner {
        try OfferSigner(key: key, issuerId: issuerId, bundleId: bundleId)
    }
}

/// Fixed inputs so the CLI's output can be rebuilt byte for byte.
enum Fixed {
    static let nonceUpper = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
    static let nonce = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
    static let nonceUUID = UUID(uuidString: nonceUpper)!
    static let iat: Int64 = 1_700_000_000
    static let timestamp: Int64 = 1_700_000_000_123
    static let productId = "com.example.monthly"
    static let offerId = "WINBACK50"
    static let transactionId = "2000000123456789"
    static let appAccountTokenUpper = "A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D"

    /// A valid Advanced Commerce one-time charge, in the library's member order.
    static let oneTimeChargeJSON =
        #"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"9b4c8f0e-1d2a-4e3b-8c5d-6f7a8b9c0d1e"},"currency":"USD","taxCode":"C003-00-2","item":{"SKU":"gems.100","description":"One hundred gems","displayName":"100 Gems","price":4990},"storefront":"USA"}"#

    /// A create-subscription request whose first item's SKU is too long (129 characters).
    static let tooLongSKUJSON =
        #"{"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"9b4c8f0e-1d2a-4e3b-8c5d-6f7a8b9c0d1e"},"currency":"EUR","taxCode":"C003-00-1","descriptors":{"description":"Premium bundle","displayName":"Premium"},"items":[{"SKU":"\#(String(repeating: "s", count: 129))","description":"News","displayName":"News","price":9990}],"period":"P1M"}"#
}

/// A fresh temporary folder.
struct TempDir {
    let url: URL
    var path: String { url.path }

    static func make() throws -> TempDir {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return TempDir(url: url)
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` and returns the path.
    @discardableResult
    func write(_ text: String, to name: String, mode: Int? = nil) throws -> String {
        let path = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        if let mode { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path) }
        return path
    }

    /// Copies the demo key to `name` with exactly `mode`, and returns the path.
    func copyOfDemoKey(named name: String, mode: Int) throws -> String {
        try write(DemoKey.privatePEM, to: name, mode: mode)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

enum FileMode {
    /// The permission bits of `path`.
    static func of(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }
}

/// Checks shared by the tests.
enum Expect {
    /// A failed run: the exit status, empty stdout, and a helpful `offerkit: ` message on stderr.
    static func failure(
        _ result: CLIResult, status: Int32, mentioning words: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "expected exit \(status)\n\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "stdout must stay empty on error\n\(result)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(whereSeparator: \.isNewline)
        #expect(
            lines.contains { $0.hasPrefix("offerkit: ") },
            "stderr must carry an error line prefixed `offerkit: `\n\(result)", sourceLocation: sourceLocation)
        // Case and spaces do not matter: "key ID" matches "keyId".
        let squeezedError = result.stderr.lowercased().filter { $0 != " " }
        for word in words {
            #expect(
                squeezedError.contains(word.lowercased().filter { $0 != " " }),
                "stderr should mention \(word)\n\(result)", sourceLocation: sourceLocation)
        }
    }

    /// A successful run.
    static func success(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "expected exit 0\n\(result)", sourceLocation: sourceLocation)
        #expect(!result.stdout.isEmpty, "expected output\n\(result)", sourceLocation: sourceLocation)
    }

    static func noDemoWarning(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            !result.stderr.lowercased().contains("demo key"), "unexpected demo-key warning\n\(result)",
            sourceLocation: sourceLocation)
    }
}
