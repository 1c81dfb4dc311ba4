import Foundation
import OfferSigning

/// Credentials resolved from flags, then the environment, then a config file, then (with nothing
/// given at all, from a folder holding keys-example/) the demo key.
struct Credentials {
    let key: SigningKey
    let issuerID: String?
    let bundleID: String?

    static let demoWarning =
        "offerkit: warning: no credentials given; using the demo key in keys-example/ (Apple rejects its signatures)"

    enum KeySource {
        case file(String)
        case standardInput
        case environment(String)
    }

    init(_ options: CredentialOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let resolved = try Identifiers(options, environment: environment)
        var source: KeySource? = resolved.keySource
        var keyID = resolved.keyID
        var issuerID = resolved.issuerID
        var bundleID = resolved.bundleID
        var configPath = resolved.configPath

        let usesDemoKey = !resolved.givenAnything
        if usesDemoKey {
            guard let demo = Self.demoConfigPath() else { throw CLIError.credentials(Self.noKeyMessage) }
            FileHandle.standardError.write(Data((Self.demoWarning + "\n").utf8))
            configPath = demo
        }
        // The config fills only what is still missing. Its key ID belongs to its key file, so it is
        // used only when the key itself comes from the config.
        if let configPath, source == nil || issuerID == nil || bundleID == nil {
            let config = try ConfigFile(path: configPath)
            let (configBundleID, app) = try config.app(for: bundleID)
            bundleID = bundleID ?? configBundleID
            issuerID = issuerID ?? app.issuerId
            if source == nil, let path = config.keyPath(app) {
                source = .file(path)
                keyID = keyID ?? app.keyId
            }
        }
        guard let source else { throw CLIError.credentials(Self.noKeyMessage) }
        if case .file(let path) = source, keyID == nil { keyID = Self.inferKeyID(fromFileName: path) }
        guard let keyID else { throw CLIError.credentials(Self.noKeyIDMessage) }
        switch source {
        case .file(let path):
            if !usesDemoKey { Self.warnIfExposed(path) }
            key = try SigningKey(contentsOfFile: path, keyID: keyID)
        case .standardInput:
            key = try SigningKey(bytes: try Self.standardInputKey(), keyID: keyID)
        case .environment(let name):
            key = try SigningKey(environmentVariable: name, keyID: keyID, environment: environment)
        }
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    /// What flags and environment say, before any config file or the demo key.
    struct Identifiers {
        var keySource: KeySource?
        var keyID: String?
        var issuerID: String?
        var bundleID: String?
        var configPath: String?

        var givenAnything: Bool {
            keySource != nil || keyID != nil || issuerID != nil || bundleID != nil || configPath != nil
        }

        init(_ options: CredentialOptions, environment: [String: String]) throws {
            // A variable that is set but empty (an unset CI secret) is an error, never "not given".
            for name in [
                "OFFERKIT_KEY_FILE", "OFFERKIT_KEY", "OFFERKIT_KEY_ID", "OFFERKIT_ISSUER_ID",
                "OFFERKIT_BUNDLE_ID", "OFFERKIT_CONFIG",
            ]
            where environment[name].map({ $0.allSatisfy(\.isWhitespace) }) == true {
                throw CLIError.credentials("environment variable \(name) is set but empty; unset it or give it a value")
            }
            if options.keyFile != nil, options.keyEnv != nil {
                throw CLIError.usage("give either --key-file or --key-env, not both")
            }
            // The key: flags, then environment (OFFERKIT_KEY_FILE before OFFERKIT_KEY).
            keySource =
                options.keyFile.map { $0 == "-" ? .standardInput : .file($0) }
                ?? options.keyEnv.map { .environment($0) }
                ?? environment["OFFERKIT_KEY_FILE"].map { .file($0) }
                ?? (environment["OFFERKIT_KEY"] != nil ? .environment("OFFERKIT_KEY") : nil)
            keyID = options.keyID ?? environment["OFFERKIT_KEY_ID"]
            issuerID = options.issuerID ?? environment["OFFERKIT_ISSUER_ID"]
            bundleID = options.bundleID ?? environment["OFFERKIT_BUNDLE_ID"]
            configPath = options.config ?? environment["OFFERKIT_CONFIG"]
        }
    }

    /// When the demo key is used: the README says the same, word for word.
    static let demoKeyRule =
        "the demo key is used only when no credential flag or OFFERKIT_* variable is given at all "
        + "and the current folder contains keys-example/config.json, as a checkout of OfferKit does"
    static let noKeyMessage =
        "no key given: use --key-file, --key-env, OFFERKIT_KEY_FILE, OFFERKIT_KEY or --config; \(demoKeyRule)"
    static let noKeyIDMessage =
        "no key ID: give --key-id or OFFERKIT_KEY_ID (it is inferred only from file names "
        + "SubscriptionKey_<ID>.p8, AuthKey_<ID>.p8 and ApiKey_<ID>.p8)"

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

    /// keys-example/config.json in the working directory (see ``demoKeyRule``).
    static func demoConfigPath() -> String? {
        let path = FileManager.default.currentDirectoryPath + "/keys-example/config.json"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The key from stdin (`--key-file -`), at most ``SigningKey/maximumKeyBytes``.
    static func standardInputKey() throws -> [UInt8] {
        do {
            return try BoundedInput.readStandardInput(limit: SigningKey.maximumKeyBytes)
        } catch .tooLarge(let limit) {
            throw KeyLoadingError.tooLarge(limit: limit)
        } catch {
            throw KeyLoadingError.unreadableFile(path: "stdin", reason: error.reason)
        }
    }

    /// Warns when a key file can be read by group or others.
    static func warnIfExposed(_ path: String) {
        Output.warnIfExposed(path, name: "key file \(path)")
    }
}
