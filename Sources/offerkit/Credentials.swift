import Foundation
import OfferSigning

/// Credentials resolved from flags, then the environment, then a config file, then (with no key
/// source at all) the demo key in keys-example/.
struct Credentials {
    let key: SigningKey
    let issuerID: String?
    let bundleID: String?
    let usesDemoKey: Bool

    static let demoWarning =
        "offerkit: warning: no credentials given; using the demo key in keys-example/ (Apple rejects its signatures)"

    private enum KeySource {
        case file(String)
        case standardInput
        case environment(String)
    }

    init(_ options: CredentialOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func env(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        if options.keyFile != nil, options.keyEnv != nil {
            throw CLIError.usage("give either --key-file or --key-env, not both")
        }
        // The key: flags, then environment (OFFERKIT_KEY_FILE before OFFERKIT_KEY), then config.
        var source: KeySource? =
            options.keyFile.map { $0 == "-" ? .standardInput : .file($0) }
            ?? options.keyEnv.map { .environment($0) }
            ?? env("OFFERKIT_KEY_FILE").map { .file($0) }
            ?? (env("OFFERKIT_KEY") != nil ? .environment("OFFERKIT_KEY") : nil)
        var keyID = options.keyID ?? env("OFFERKIT_KEY_ID")
        var issuerID = options.issuerID ?? env("OFFERKIT_ISSUER_ID")
        var bundleID = options.bundleID ?? env("OFFERKIT_BUNDLE_ID")
        var configPath = options.config ?? env("OFFERKIT_CONFIG")

        let givenAnything = source != nil || keyID != nil || issuerID != nil || bundleID != nil || configPath != nil
        usesDemoKey = !givenAnything
        if usesDemoKey {
            guard let demo = Self.demoConfigPath() else {
                throw CLIError.credentials(Self.noKeyMessage)
            }
            FileHandle.standardError.write(Data((Self.demoWarning + "\n").utf8))
            configPath = demo
        }
        if let configPath {
            let config = try ConfigFile(path: configPath)
            let (configBundleID, app) = try config.app(for: bundleID)
            bundleID = bundleID ?? configBundleID
            source = source ?? config.keyPath(app).map { .file($0) }
            keyID = keyID ?? app.keyId
            issuerID = issuerID ?? app.issuerId
        }
        guard let source else { throw CLIError.credentials(Self.noKeyMessage) }
        if case .file(let path) = source, keyID == nil { keyID = Self.inferKeyID(fromFileName: path) }
        guard let keyID else {
            throw CLIError.credentials(
                "no key ID: give --key-id or OFFERKIT_KEY_ID (it is inferred only from file names "
                    + "SubscriptionKey_<ID>.p8 and AuthKey_<ID>.p8)")
        }
        switch source {
        case .file(let path):
            if !usesDemoKey { Self.warnIfExposed(path) }
            key = try SigningKey(contentsOfFile: path, keyID: keyID)
        case .standardInput:
            key = try SigningKey(bytes: FileHandle.standardInput.readDataToEndOfFile(), keyID: keyID)
        case .environment(let name):
            key = try SigningKey(environmentVariable: name, keyID: keyID, environment: environment)
        }
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    static let noKeyMessage = "no key given: use --key-file, --key-env, OFFERKIT_KEY_FILE, OFFERKIT_KEY or --config"

    /// An `OfferSigner` for these credentials; issuer and bundle IDs are required.
    func signer() throws -> OfferSigner {
        guard let issuerID else {
            throw CLIError.credentials("no issuer ID: give --issuer-id, OFFERKIT_ISSUER_ID or a config file")
        }
        guard let bundleID else {
            throw CLIError.credentials("no bundle ID: give --bundle-id, OFFERKIT_BUNDLE_ID or a config file")
        }
        return try OfferSigner(key: key, issuerID: issuerID, bundleID: bundleID)
    }

    /// `SubscriptionKey_2X9R4HXF34.p8` or `AuthKey_2X9R4HXF34.p8` → `2X9R4HXF34`.
    static func inferKeyID(fromFileName path: String) -> String? {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        for prefix in ["SubscriptionKey_", "AuthKey_", "ApiKey_"] where name.hasPrefix(prefix) {
            let candidate = String(name.dropFirst(prefix.count))
            if candidate.utf8.count == 10 { return candidate }
        }
        return nil
    }

    /// keys-example/config.json in the working directory or beside the package that built us.
    static func demoConfigPath() -> String? {
        var candidates = [FileManager.default.currentDirectoryPath + "/keys-example/config.json"]
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.appendingPathComponent("keys-example/config.json").path)
            folder = folder.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Warns when a key file can be read by group or others.
    static func warnIfExposed(_ path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.uint16Value, mode & 0o077 != 0
        else { return }
        let message =
            "offerkit: warning: key file \(path) is readable by group or others (mode \(String(mode & 0o777, radix: 8))); "
            + "run chmod 600 on it\n"
        FileHandle.standardError.write(Data(message.utf8))
    }
}
