import Foundation
import OfferAppleVerification
import OfferJSON
import OfferRetention

extension ServiceConfiguration {
    /// The members of the `retention` section.
    static let retentionMembers = ["path", "environments", "rootCertificates", "maxRequestAgeSeconds", "apps"]

    /// Reads the `retention` section; `apps` are the configuration's apps (bundle ID → credentials).
    static func retention(
        _ json: JSONValue, apps: [String: AppCredentials], source: String, folder: URL
    ) throws(ConfigurationError) -> RetentionConfiguration {
        func invalid(_ field: String, _ expected: String, _ found: JSONValue?) -> ConfigurationError {
            .invalidField(
                source: source, field: field,
                expected: "\(expected) (found \(found?.shortDescription ?? "nothing"))")
        }
        guard case .object(let members) = json else { throw invalid("retention", "an object", json) }
        for (name, _) in members where !retentionMembers.contains(name) {
            throw .invalidField(
                source: source, field: "retention.\(name)",
                expected: "one of \(retentionMembers.joined(separator: ", ")) (found an unknown member)")
        }
        var configuration = RetentionConfiguration(environments: [])
        if let value = json["path"] {
            guard case .string(let path) = value, isEndpointPath(path) else {
                throw invalid(
                    "retention.path",
                    "a path such as \"/v1/retention/realtime\": '/' then segments of letters, digits, '-', '.', '_' "
                        + "or '~', at most 256 characters", value)
            }
            if let clash = ServiceOperation.all.first(where: { $0.path == path && !$0.requiresRetention }) {
                throw .invalidField(
                    source: source, field: "retention.path",
                    expected: "a path of its own (found \(path), which is \(clash.id)'s)")
            }
            configuration.path = path
        }
        let environmentsRule = "a list of \"Sandbox\" and/or \"Production\", each once"
        guard case .array(let names)? = json["environments"], !names.isEmpty else {
            throw invalid("retention.environments", environmentsRule, json["environments"])
        }
        for (index, name) in names.enumerated() {
            guard case .string(let text) = name, let environment = AppleEnvironment(rawValue: text),
                environment == .sandbox || environment == .production,
                !configuration.environments.contains(environment)
            else { throw invalid("retention.environments[\(index)]", environmentsRule, name) }
            configuration.environments.append(environment)
        }
        if let value = json["rootCertificates"] {
            guard case .array(let files) = value, (1...16).contains(files.count) else {
                throw invalid("retention.rootCertificates", "a list of 1 to 16 PEM files", value)
            }
            for (index, file) in files.enumerated() {
                guard case .string(let path) = file, !path.isEmpty, !path.utf8.contains(where: { $0 < 0x20 }) else {
                    throw invalid("retention.rootCertificates[\(index)]", "the path of a PEM file", file)
                }
                configuration.rootCertificateFiles.append(resolve(path, in: folder))
            }
        }
        if let value = json["maxRequestAgeSeconds"] {
            let range = RetentionSettings.maxRequestAgeRange
            guard let seconds = value.exactInteger, range.contains(Int(clamping: seconds)) else {
                throw invalid(
                    "retention.maxRequestAgeSeconds", "an integer from \(range.lowerBound) to \(range.upperBound)",
                    value)
            }
            configuration.maxRequestAgeSeconds = Int(seconds)
        }
        if let value = json["apps"] {
            guard case .object(let entries) = value else {
                throw invalid("retention.apps", "an object mapping bundle IDs to rules", value)
            }
            for (bundleId, rules) in entries {
                let field = "retention.apps[\"\(bundleId)\"]"
                guard let app = apps[bundleId] else {
                    throw .invalidField(
                        source: source, field: field,
                        expected: "an app of \"apps\" (found \(bundleId), which \"apps\" does not have)")
                }
                guard app.appAppleId != nil else {
                    throw .invalidField(
                        source: source, field: field,
                        expected: "an app with \"appAppleId\" in apps[\"\(bundleId)\"] (Apple's requests name the app "
                            + "only by it; found none)")
                }
                do {
                    configuration.rules[bundleId] = try RetentionRules(parsing: rules, path: field)
                } catch {
                    throw .retentionRules(source: source, error)
                }
            }
        }
        try configuration.checkTrust(source: source)
        guard apps.values.contains(where: { $0.appAppleId != nil }) else {
            throw .invalidField(
                source: source, field: "retention",
                expected: "at least one app with \"appAppleId\" in \"apps\" for the endpoint to serve (found none)")
        }
        return configuration
    }

    /// Whether `path` is `/` and segments of letters, digits, `-`, `.`, `_` or `~` separated by
    /// single `/`, at most 256 characters, and not `/` alone.
    static func isEndpointPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard (2...256).contains(bytes.count), bytes.first == UInt8(ascii: "/") else { return false }
        let segments = bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return segments.allSatisfy { segment in
            !segment.isEmpty && segment != [UInt8(ascii: ".")] && segment != [UInt8(ascii: "."), UInt8(ascii: ".")]
                && segment.allSatisfy {
                    $0.isASCIIAlphanumeric
                        || [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")]
                            .contains($0)
                }
        }
    }

    /// The apps' App Apple IDs, each at most once.
    static func checkAppAppleIds(_ apps: [String: AppCredentials], source: String) throws(ConfigurationError) {
        var seen: [Int64: String] = [:]
        for bundleId in apps.keys.sorted() {
            guard let id = apps[bundleId]?.appAppleId else { continue }
            if let other = seen[id] {
                throw .invalidField(
                    source: source, field: "apps[\"\(bundleId)\"].appAppleId",
                    expected: "an App Apple ID of its own (found \(id), which \(other) has too)")
            }
            seen[id] = bundleId
        }
    }
}
