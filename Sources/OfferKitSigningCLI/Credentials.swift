import Foundation
import OfferJSON
import OfferSigning

/// Credentials resolved from flags, then the environment, then a config file, then (with nothing
/// given at all, from a folder holding keys-example/) the demo key.
package struct Credentials {
    package let key: SigningKey
    package let issuerId: String?
    package let bundleId: String?
    /// Whether the key's ID was given or inferred; `false` only when resolved with
    /// `keyIdRequired: false` (then ``key`` carries ``unknownKeyId``, which is never shown).
    package let keyIdKnown: Bool

    /// The key ID a key without one is loaded with, for `key inspect` only.
    package static let unknownKeyId = "0000000000"

    /// Where credentials come from, in the help of `offerkit` (either command tree).
    package static let helpText = """
        Credentials: --key-file, --key-env, --key-id, --issuer-id, --bundle-id, --config; or OFFERKIT_KEY_FILE, \
        OFFERKIT_KEY, OFFERKIT_KEY_ID, OFFERKIT_ISSUER_ID, OFFERKIT_BUNDLE_ID, OFFERKIT_CONFIG. Flags beat the \
        environment, which beats the config file. The demo key is used, with a warning, only when none of \
        these is given and the current folder contains keys-example/config.json (a checkout of OfferKit).
        """

    package static let demoWarning =
        "offerkit: warning: no credentials given; using the demo key in keys-example/ (Apple rejects its signatures)"

    package enum KeySource {
        case file(String)
        case standardInput
        case environment(String)
    }

    /// A credential a command needs besides the key and its key ID.
    package enum Need: CaseIterable {
        case issuerId
        case bundleId
    }

    /// What signing needs: the issuer ID and the bundle ID as well as the key.
    package static let signing: Set<Need> = [.issuerId, .bundleId]

    /// Resolves the signing flags' key, key ID and what `needs` names.
    package init(
        _ options: CredentialOptions, needs: Set<Need> = [],
        environment: [String: String] = CommandContext.current.environment
    ) throws {
        try self.init(options.inputs, needs: needs, environment: environment)
    }

    /// Resolves the key, its key ID and what `needs` names.
    /// - Parameter keyIdRequired: `false` for a command that can do without the key ID (`key
    ///   inspect`): a missing one is not an error then (see ``keyIdKnown``).
    /// - Throws: ``CLIError/credentials(_:)`` listing every missing credential at once, each with
    ///   every place it can come from.
    package init(
        _ options: CredentialInputs, needs: Set<Need> = [], keyIdRequired: Bool = true,
        environment: [String: String] = CommandContext.current.environment
    ) throws {
        let resolved = try Identifiers(options, environment: environment)
        var source: KeySource? = resolved.keySource
        var keyId = resolved.keyId
        var issuerId = resolved.issuerId
        var bundleId = resolved.bundleId
        var configPath = resolved.configPath

        let usesDemoKey = !resolved.givenAnything
        if usesDemoKey {
            guard let demo = Self.demoConfigPath() else {
                throw CLIError.credentials(Self.missingMessage([.key, .keyId] + Self.missing(needs, nil, nil)))
            }
            CommandContext.current.error.write(Data((Self.demoWarning + "\n").utf8))
            configPath = demo
        }
        // The config fills only what is still missing. Its key ID belongs to its key file, so it is
        // used only when the key itself comes from the config.
        if let configPath, source == nil || issuerId == nil || bundleId == nil {
            let config = try ConfigFile(path: configPath)
            let (configBundleId, app) = try config.app(for: bundleId)
            bundleId = bundleId ?? configBundleId
            issuerId = issuerId ?? app.issuerId
            if source == nil, let path = config.keyPath(app) {
                source = .file(path)
                keyId = keyId ?? app.keyId
            }
        }
        if case .file(let path)? = source, keyId == nil { keyId = Self.inferKeyId(fromFileName: path) }
        // Everything missing in one message: a second run should not find another gap.
        var missing: [Missing] = []
        if source == nil { missing.append(.key) }
        if keyId == nil, keyIdRequired { missing.append(.keyId) }
        missing += Self.missing(needs, issuerId, bundleId)
        guard let source, missing.isEmpty else { throw CLIError.credentials(Self.missingMessage(missing)) }
        keyIdKnown = keyId != nil
        let loadedKeyId = keyId ?? Self.unknownKeyId
        switch source {
        case .file(let path):
            if !usesDemoKey { Self.warnIfExposed(path) }
            key = try SigningKey(contentsOfFile: path, keyId: loadedKeyId)
        case .standardInput:
            key = try SigningKey(bytes: try Self.standardInputKey(), keyId: loadedKeyId)
        case .environment(let name):
            key = try SigningKey(environmentVariable: name, keyId: loadedKeyId, environment: environment)
        }
        self.issuerId = issuerId
        self.bundleId = bundleId
    }

    /// What flags and environment say, before any config file or the demo key.
    package struct Identifiers {
        package var keySource: KeySource?
        package var keyId: String?
        package var issuerId: String?
        package var bundleId: String?
        package var configPath: String?

        package var givenAnything: Bool {
            keySource != nil || keyId != nil || issuerId != nil || bundleId != nil || configPath != nil
        }

        package init(_ options: CredentialOptions, environment: [String: String]) throws {
            try self.init(options.inputs, environment: environment)
        }

        package init(_ options: CredentialInputs, environment: [String: String]) throws {
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
            keyId = options.keyId ?? environment["OFFERKIT_KEY_ID"]
            issuerId = options.issuerId ?? environment["OFFERKIT_ISSUER_ID"]
            bundleId = options.bundleId ?? environment["OFFERKIT_BUNDLE_ID"]
            configPath = options.config ?? environment["OFFERKIT_CONFIG"]
        }
    }

    /// A credential that was not given, with every place it can come from.
    package enum Missing {
        case key, keyId, issuerId, bundleId

        /// `issuer ID (--issuer-id, OFFERKIT_ISSUER_ID or the config's issuerId)`.
        package var text: String {
            switch self {
            case .key:
                "key (--key-file, --key-env, OFFERKIT_KEY_FILE, OFFERKIT_KEY or the config's keyFile)"
            case .keyId:
                "key ID (--key-id, OFFERKIT_KEY_ID or the config's keyId; inferred only from the file names "
                    + "SubscriptionKey_<ID>.p8, AuthKey_<ID>.p8 and ApiKey_<ID>.p8)"
            case .issuerId: "issuer ID (--issuer-id, OFFERKIT_ISSUER_ID or the config's issuerId)"
            case .bundleId: "bundle ID (--bundle-id, OFFERKIT_BUNDLE_ID or a config file with one app)"
            }
        }
    }

    /// The needed identifiers among `issuerId` and `bundleId` that are `nil`.
    package static func missing(_ needs: Set<Need>, _ issuerId: String?, _ bundleId: String?) -> [Missing] {
        (needs.contains(.issuerId) && issuerId == nil ? [.issuerId] : [])
            + (needs.contains(.bundleId) && bundleId == nil ? [.bundleId] : [])
    }

    /// When the demo key is used: docs/signing.md (Credentials) says the same, word for word.
    package static let demoKeyRule =
        "the demo key is used only when no credential flag or OFFERKIT_* variable is given at all "
        + "and the current folder contains keys-example/config.json, as a checkout of OfferKit does"

    /// `missing: issuer ID (…), bundle ID (…); the config file is named by --config or OFFERKIT_CONFIG`,
    /// led by "no key given" and followed by ``demoKeyRule`` when the key is among them.
    package static func missingMessage(_ missing: [Missing]) -> String {
        (missing.contains(.key) ? "no key given; " : "")
            + "missing: " + missing.map(\.text).joined(separator: ", ")
            + (missing.contains(where: { $0 != .keyId })
                ? "; the config file is named by --config or OFFERKIT_CONFIG" : "")
            + (missing.contains(.key) ? "; \(demoKeyRule)" : "")
    }

    package static let noKeyIdMessage = missingMessage([.keyId])

    /// An `OfferSigner` for these credentials; issuer and bundle IDs are required (resolve with
    /// `needs: Credentials.signing` to have them reported with everything else missing).
    package func signer() throws -> OfferSigner {
        guard let issuerId, let bundleId else {
            throw CLIError.credentials(Self.missingMessage(Self.missing(Self.signing, issuerId, bundleId)))
        }
        return try OfferSigner(key: key, issuerId: issuerId, bundleId: bundleId)
    }

    /// `SubscriptionKey_2X9R4HXF34.p8` or `AuthKey_2X9R4HXF34.p8` → `2X9R4HXF34`.
    package static func inferKeyId(fromFileName path: String) -> String? {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        for prefix in ["SubscriptionKey_", "AuthKey_", "ApiKey_"] where name.hasPrefix(prefix) {
            let candidate = String(name.dropFirst(prefix.count))
            if candidate.utf8.count == 10 { return candidate }
        }
        return nil
    }

    /// keys-example/config.json in the working directory (see ``demoKeyRule``).
    package static func demoConfigPath() -> String? {
        let path = FileManager.default.currentDirectoryPath + "/keys-example/config.json"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The key from stdin (`--key-file -`), at most ``SigningKey/maximumKeyBytes``.
    package static func standardInputKey() throws -> [UInt8] {
        do {
            return try BoundedInput.readStandardInput(
                limit: SigningKey.maximumKeyBytes, descriptor: CommandContext.current.standardInput)
        } catch .tooLarge(let limit) {
            throw KeyLoadingError.tooLarge(limit: limit)
        } catch {
            throw KeyLoadingError.unreadableFile(path: "stdin", reason: error.reason)
        }
    }

    /// Warns when a key file can be read by group or others.
    package static func warnIfExposed(_ path: String) {
        Output.warnIfExposed(path, name: "key file \(path)")
    }
}
