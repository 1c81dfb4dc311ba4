import Foundation
import OfferCodes
import OfferJSON
import OfferLedger
import OfferSigning

/// What the service serves: the apps (bundle ID → key file, key ID, issuer ID), an optional App
/// Store Connect API key, the API keys that may call it, its limits, and an optional code ledger.
///
/// ```json
/// {
///   "apps": {
///     "com.example.app": { "keyFile": "SubscriptionKey_2X9R4HXF34.p8", "keyId": "2X9R4HXF34",
///                          "issuerId": "57246542-96fe-1a63-e053-0824d011072a" }
///   },
///   "apiKeys": [ { "name": "billing", "sha256": "<64 hex digits>", "scopes": ["*"], "bundleIds": ["*"] } ],
///   "limits": { "maxBodyBytes": 1048576, "requestTimeoutSeconds": 10, "requestsPerSecond": 50, "burst": 100,
///               "maxConnections": 10000, "backlog": 4096 },
///   "ledger": "offerkit-ledger.sqlite",
///   "tls": { "certificateChain": "fullchain.pem", "privateKey": "privkey.pem" }
/// }
/// ```
public struct ServiceConfiguration: Sendable {
    public var apps: [String: AppCredentials]
    public var connectAPI: ConnectAPICredentials?
    public var apiKeys: [APIKey]
    public var limits: ServiceLimits
    /// The code ledger to hand out codes from (`"ledger"`: a path, `sqlite:PATH` or
    /// `postgres://…`, as `--ledger` takes it; a relative path is read from the configuration's
    /// folder). `nil`: the service keeps no ledger and has no claim or status operation.
    public var ledger: LedgerLocation?
    /// The Get Retention Message endpoint (`"retention"`); `nil`: the service has none.
    public var retention: RetentionConfiguration?
    /// The TLS certificate chain and private key to serve HTTPS with (`"tls"`, relative paths read
    /// from the configuration's folder); `nil`: plain HTTP.
    public var tls: TLSFiles?
    /// Notes on deprecated spellings the file used (a scope named `promotional-offer-v1`, say), for
    /// the caller to print; the configuration works as if the current name had been written.
    public var deprecationNotes: [String] = []

    public init(
        apps: [String: AppCredentials], connectAPI: ConnectAPICredentials? = nil, apiKeys: [APIKey] = [],
        limits: ServiceLimits = ServiceLimits(), ledger: LedgerLocation? = nil, retention: RetentionConfiguration? = nil
    ) {
        self.apps = apps
        self.connectAPI = connectAPI
        self.apiKeys = apiKeys
        self.limits = limits
        self.ledger = ledger
        self.retention = retention
    }

    /// The environment variable that may hold more API keys: a JSON array of entries as in `apiKeys`.
    public static let apiKeysVariable = "OFFERKIT_API_KEYS"

    /// The largest configuration file read: 1 MiB.
    public static let maximumFileBytes = 1 << 20

    /// Reads a configuration file, resolving relative key files against its folder, and adds the
    /// API keys in `OFFERKIT_API_KEYS` when the environment has it.
    ///
    /// Every problem is reported at once, as campaign validation reports them: one problem is that
    /// problem's error (``ConfigurationError/invalidField(source:field:expected:)``, …), several are
    /// ``ConfigurationError/invalidFields(_:)``, each with its source and field.
    public static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ConfigurationError) -> ServiceConfiguration
    {
        let data: [UInt8]
        do {
            data = try BoundedInput.read(path: path, limit: maximumFileBytes, accepting: .regularFile)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            throw .notJSON(path: path, detail: error.message)
        }
        var problems = ConfigurationProblems()
        var configuration = parse(
            json, source: path, folder: URL(fileURLWithPath: path).deletingLastPathComponent(), problems: &problems)
        var source = path
        if let variable = environment[apiKeysVariable] {
            configuration.apiKeys += parseAPIKeys(
                variable, source: apiKeysVariable, notes: &configuration.deprecationNotes, problems: &problems)
            source += " with \(apiKeysVariable)"
        }
        var names = Set<String>()
        var digests = Set<[UInt8]>()
        for key in configuration.apiKeys {
            if !names.insert(key.name).inserted {
                problems.add(
                    .invalidField(
                        source: source, field: "apiKeys", expected: "unique names (\(key.name) appears more than once)")
                )
            } else if !digests.insert(key.digest).inserted {
                problems.add(
                    .invalidField(
                        source: source, field: "apiKeys",
                        expected: "a different secret for each key (\(key.name) has the sha256 of another key)"))
            }
        }
        try problems.check()
        return configuration
    }

    /// Parses the API keys of `OFFERKIT_API_KEYS`, recording every problem in `problems`.
    static func parseAPIKeys(
        _ text: String, source: String, notes: inout [String], problems: inout ConfigurationProblems
    ) -> [APIKey] {
        let json: JSONValue
        do {
            json = try JSONValue.parse(Array(text.utf8))
        } catch {
            problems.add(.notJSON(path: source, detail: error.message))
            return []
        }
        var own = ConfigurationProblems()
        check(json, against: .array(of: apiKeySchema), source: source, problems: &own)
        guard case .array(let entries) = json else {
            problems.add(contentsOf: own)
            return []
        }
        var keys: [APIKey] = []
        for (index, entry) in entries.enumerated() where !own.touches("[\(index)]") {
            if let key = own.attempt({ () throws(ConfigurationError) in
                try apiKey(entry, source: source, field: "[\(index)]", notes: &notes)
            }) {
                keys.append(key)
            }
        }
        problems.add(contentsOf: own)
        return keys
    }

    /// Builds a configuration from parsed JSON.
    /// - Throws: what ``parse(_:source:folder:problems:)`` records: one problem's error, or
    ///   ``ConfigurationError/invalidFields(_:)`` with all of them.
    static func parse(_ json: JSONValue, source: String, folder: URL) throws(ConfigurationError) -> ServiceConfiguration
    {
        var problems = ConfigurationProblems()
        let configuration = parse(json, source: source, folder: folder, problems: &problems)
        try problems.check()
        return configuration
    }

    /// Builds a configuration from parsed JSON, recording every problem in `problems`: each part
    /// is read as far as it is valid, and a part whose shape is wrong is not read further (its
    /// problem is the schema's).
    static func parse(
        _ json: JSONValue, source: String, folder: URL, problems: inout ConfigurationProblems
    ) -> ServiceConfiguration {
        if let problem = credentialsFileProblem(json, source: source) {
            problems.add(problem)
            return ServiceConfiguration(apps: [:])
        }
        // The apps first, by the signing library's reader of app entries (the CLI's config file
        // uses the same one); the schema checks the rest.
        var apps: [String: AppCredentials] = [:]
        if case .object = json, let entries = json["apps"], case .object = entries {
            for entry in appEntries(entries, source: source, problems: &problems) {
                apps[entry.bundleId] = AppCredentials(
                    keyFile: entry.resolvedKeyFile(folder: folder.path) ?? "", keyId: entry.keyId ?? "",
                    issuerId: entry.issuerId ?? "", appAppleId: entry.appAppleId)
            }
        }
        check(json, against: schema, source: source, problems: &problems)
        guard case .object = json else { return ServiceConfiguration(apps: apps) }
        checkAppAppleIds(apps, source: source, problems: &problems)
        var retention: RetentionConfiguration?
        if let section = json["retention"] {
            retention = Self.retention(section, apps: apps, source: source, folder: folder, problems: &problems)
        }
        var connectAPI: ConnectAPICredentials?
        if let entry = json["connectApiKey"], !problems.touches("connectApiKey") {
            connectAPI = ConnectAPICredentials(
                keyFile: resolve(text(entry, "keyFile"), in: folder), keyId: text(entry, "keyId"),
                issuerId: entry["issuerId"].map { _ in text(entry, "issuerId") })
        }
        var apiKeys: [APIKey] = []
        var notes: [String] = []
        if case .array(let entries)? = json["apiKeys"], !problems.touches("apiKeys") {
            for (index, entry) in entries.enumerated() {
                if let key = problems.attempt({ () throws(ConfigurationError) in
                    try apiKey(entry, source: source, field: "apiKeys[\(index)]", notes: &notes)
                }) {
                    apiKeys.append(key)
                }
            }
        }
        var limits = ServiceLimits()
        if let entry = json["limits"], !problems.touches("limits") {
            if let value = entry["maxBodyBytes"]?.exactInteger { limits.maxBodyBytes = Int(value) }
            if let value = entry["requestTimeoutSeconds"]?.exactInteger { limits.requestTimeoutSeconds = Double(value) }
            if let value = entry["requestsPerSecond"]?.exactInteger { limits.requestsPerSecond = Double(value) }
            if let value = entry["burst"]?.exactInteger { limits.burst = Int(value) }
            if let value = entry["maxConnections"]?.exactInteger { limits.maxConnections = Int(value) }
            if let value = entry["backlog"]?.exactInteger { limits.backlog = Int(value) }
        }
        var ledger: LedgerLocation?
        if !problems.touches("ledger") {
            ledger =
                problems.attempt { () throws(ConfigurationError) in
                    try Self.ledger(json["ledger"], source: source, folder: folder)
                } ?? nil
        }
        var configuration = ServiceConfiguration(
            apps: apps, connectAPI: connectAPI, apiKeys: apiKeys, limits: limits, ledger: ledger, retention: retention)
        configuration.deprecationNotes = notes
        if let entry = json["tls"], !problems.touches("tls") {
            configuration.tls = TLSFiles(
                certificateChain: resolve(text(entry, "certificateChain"), in: folder),
                privateKey: resolve(text(entry, "privateKey"), in: folder), origin: .configuration(source: source))
        }
        return configuration
    }

    /// The problem of a file that is the CLI's credentials file (`--config`, bundle IDs mapped to
    /// keys at the top level, as `keys-example/config.json`) instead of a service configuration
    /// (those entries under `apps`, as `keys-example/service.json`); `nil` for any other document.
    static func credentialsFileProblem(_ json: JSONValue, source: String) -> ConfigurationError? {
        guard case .object(let members) = json, !members.isEmpty, json["apps"] == nil else { return nil }
        let entries = members.allSatisfy { member in
            guard CredentialValidation.isBundleId(member.key), case .object(let fields) = member.value else {
                return false
            }
            return fields.allSatisfy { AppCredentialsEntry.members.contains($0.key) }
        }
        guard entries else { return nil }
        return .invalidField(
            source: source, field: "(top level)",
            expected: "a service configuration, with the apps under \"apps\" (found the format of the CLI's "
                + "--config file, which maps bundle IDs to keys at the top level, as keys-example/config.json does; "
                + "put that object under \"apps\", as keys-example/service.json does, and `offerkit --config` reads "
                + "that file too)")
    }

    /// The `"ledger"` locator, parsed by ``LedgerLocation`` (its password never shown in errors); a
    /// relative SQLite path is resolved against the configuration's folder, as key files are.
    private static func ledger(_ entry: JSONValue?, source: String, folder: URL) throws(ConfigurationError)
        -> LedgerLocation?
    {
        guard case .string(let locator)? = entry else { return nil }
        do {
            switch try LedgerLocation(parsing: locator) {
            case .sqlite(let path): return .sqlite(path: resolve(path, in: folder))
            case .postgres(let location): return .postgres(location)
            }
        } catch {
            let reason = (error as? LedgerLocationError)?.localizedDescription ?? "the locator cannot be parsed"
            throw .invalidField(
                source: source, field: "ledger",
                expected: "a file path, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE (\(reason))")
        }
    }

    /// The entries of `apps` that have all three members; a problem for each field at fault.
    private static func appEntries(_ apps: JSONValue, source: String, problems: inout ConfigurationProblems)
        -> [AppCredentialsEntry]
    {
        let (entries, errors) = AppCredentialsEntry.read(apps)
        for error in errors {
            let field =
                switch error {
                case .notJSON, .notAnObject: "apps"
                case .invalidBundleId(let bundleId): "apps.\(bundleId)"
                case .entryNotAnObject(let bundleId, _): "apps[\"\(bundleId)\"]"
                case .invalidMember(let bundleId, let member, _, _): "apps[\"\(bundleId)\"].\(member)"
                }
            problems.add(
                .invalidField(source: source, field: field, expected: "\(error.expected) (found \(error.found))"))
        }
        var complete: [AppCredentialsEntry] = []
        for entry in entries {
            let missing = entry.missingMembers
            guard !missing.isEmpty else {
                complete.append(entry)
                continue
            }
            // One missing member is named as the field; several are listed together.
            let field = "apps[\"\(entry.bundleId)\"]" + (missing.count == 1 ? ".\(missing[0])" : "")
            problems.add(
                .invalidField(
                    source: source, field: field,
                    expected: "keyFile, keyId and issuerId (missing: \(missing.joined(separator: ", ")))"))
        }
        return complete
    }

    private static func apiKey(
        _ entry: JSONValue, source: String, field: String, notes: inout [String]
    ) throws(ConfigurationError) -> APIKey {
        let hex = text(entry, "sha256")
        guard let digest = Hex.bytes(hex), digest.count == 32 else {
            throw .invalidField(source: source, field: "\(field).sha256", expected: "64 hexadecimal digits (SHA-256)")
        }
        let scopeNames = strings(entry, "scopes")
        var scopes: Set<OperationScope>?
        if scopeNames != ["*"] {
            var set = Set<OperationScope>()
            for (index, name) in scopeNames.enumerated() {
                guard let (scope, deprecated) = OperationScope.named(name) else {
                    throw .invalidField(
                        source: source, field: "\(field).scopes[\(index)]",
                        expected: "\"*\" alone, or scopes among \(OperationScope.names) (in any case; found "
                            + "\(EnumeratedSpelling.shown(name)))")
                }
                if deprecated, let note = SigningOperation.deprecationNote(for: name) {
                    notes.append("\(source): \(field).scopes[\(index)]: \(note)")
                }
                set.insert(scope)
            }
            scopes = set
        }
        let bundleNames = strings(entry, "bundleIds")
        var bundleIds: Set<String>?
        if bundleNames != ["*"] {
            for (index, name) in bundleNames.enumerated() where !StringRules.Format.bundleId.matches(name) {
                throw .invalidField(
                    source: source, field: "\(field).bundleIds[\(index)]", expected: "\"*\" alone, or bundle IDs")
            }
            bundleIds = Set(bundleNames)
        }
        if bundleIds != nil, scopes?.contains(.connectAPIToken) == true {
            throw .invalidField(
                source: source, field: "\(field).scopes",
                expected: "no connect-api-token scope for a key limited to some bundle IDs (an App Store Connect API "
                    + "token acts for the whole team)")
        }
        return APIKey(name: text(entry, "name"), digest: digest, scopes: scopes, bundleIds: bundleIds)
    }

    /// Records every place `json` breaks `schema`.
    private static func check(
        _ json: JSONValue, against schema: JSONSchema, source: String, problems: inout ConfigurationProblems
    ) {
        for violation in SchemaValidator().violations(json, against: schema) {
            // The validator calls the root `(body)`; in a configuration it is the whole document.
            problems.add(
                .invalidField(
                    source: source, field: violation.field == "(body)" ? "(top level)" : violation.field,
                    expected: "\(violation.expected) (found \(violation.found))"))
        }
    }

    private static func text(_ entry: JSONValue, _ name: String) -> String {
        if case .string(let value)? = entry[name] { return value }
        return ""
    }

    private static func strings(_ entry: JSONValue, _ name: String) -> [String] {
        guard case .array(let elements)? = entry[name] else { return [] }
        return elements.compactMap { if case .string(let value) = $0 { value } else { nil } }
    }

    static func resolve(_ file: String, in folder: URL) -> String {
        file.hasPrefix("/") ? file : folder.appendingPathComponent(file).path
    }
}

extension ServiceConfiguration {
    static let apiKeySchema = JSONSchema.object([
        .init("name", .string(.identifier(maxLength: 64), description: "A name for logs and metrics.")),
        .init("sha256", .string(StringRules(minLength: 64, maxLength: 64), description: "SHA-256 of the secret, hex.")),
        .init("scopes", .array(of: .string(.identifier()), minItems: 1, description: "Scopes, or [\"*\"] for all.")),
        .init(
            "bundleIds", .array(of: .string(.identifier()), minItems: 1, description: "Bundle IDs, or [\"*\"] for all.")
        ),
    ])

    /// The members of a configuration file, in documented order: `apps`, `connectApiKey`, ….
    package static var members: [String] {
        guard case .object(let properties, _) = schema.kind else { return [] }
        return properties.map(\.name)
    }

    /// The schema of a configuration file.
    static let schema = JSONSchema.object([
        // Each app's entry is read by AppCredentialsEntry.parse (the signing library's one reader of
        // key file, key ID and issuer ID), before this schema is checked.
        .init("apps", JSONSchema(.object([], additionalProperties: JSONSchema(.any))), required: true),
        .init(
            "connectApiKey",
            .object([
                .init("keyFile", .string(.identifier())), .init("keyId", .string(.identifier())),
                .init("issuerId", .string(StringRules(format: .uuid)), required: false),
            ]), required: false),
        .init("apiKeys", .array(of: apiKeySchema), required: false),
        .init(
            "limits",
            .object([
                .init("maxBodyBytes", .integer(minimum: 1024, maximum: 104_857_600), required: false),
                .init("requestTimeoutSeconds", .integer(minimum: 1, maximum: 600), required: false),
                .init("requestsPerSecond", .integer(minimum: 1, maximum: 1_000_000), required: false),
                .init("burst", .integer(minimum: 1, maximum: 1_000_000), required: false),
                .init("maxConnections", .integer(minimum: 1, maximum: 1_000_000), required: false),
                .init("backlog", .integer(minimum: 1, maximum: 65_535), required: false),
            ]), required: false),
        .init("ledger", .string(StringRules(minLength: 1, maxLength: 4096)), required: false),
        .init(
            "tls",
            .object([
                .init("certificateChain", .string(StringRules(minLength: 1, maxLength: 4096))),
                .init("privateKey", .string(StringRules(minLength: 1, maxLength: 4096))),
            ]), required: false),
        // The Get Retention Message endpoint: read by ServiceConfiguration.retention, which names each field.
        .init("retention", JSONSchema(.any), required: false),
    ])
}
