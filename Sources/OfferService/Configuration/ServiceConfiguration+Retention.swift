import Foundation
import OfferAppleVerification
import OfferJSON
import OfferRetentionEndpoint

extension ServiceConfiguration {
    /// The members of the `retention` section.
    static let retentionMembers = ["path", "environments", "rootCertificates", "maxRequestAgeSeconds", "apps"]

    /// Reads the `retention` section; `apps` are the configuration's apps (bundle ID → credentials).
    /// Every problem is recorded in `problems`, and the section is read as far as it is valid.
    static func retention(
        _ json: JSONValue, apps: [String: AppCredentials], source: String, folder: URL,
        problems: inout ConfigurationProblems
    ) -> RetentionConfiguration? {
        func invalid(_ field: String, _ expected: String, _ found: JSONValue?) -> ConfigurationError {
            .invalidField(
                source: source, field: field,
                expected: "\(expected) (found \(found?.shortDescription ?? "nothing"))")
        }
        guard case .object(let members) = json else {
            problems.add(invalid("retention", "an object", json))
            return nil
        }
        for (name, _) in members where !retentionMembers.contains(name) {
            problems.add(
                .invalidField(
                    source: source, field: "retention.\(name)",
                    expected: "one of \(retentionMembers.joined(separator: ", ")) (found an unknown member)"))
        }
        var configuration = RetentionConfiguration(environments: [])
        if let value = json["path"] {
            if case .string(let path) = value, isEndpointPath(path) {
                if let clash = ServiceOperation.all.first(where: { $0.path == path && !$0.requiresRetention }) {
                    problems.add(
                        .invalidField(
                            source: source, field: "retention.path",
                            expected: "a path of its own (found \(path), which is \(clash.id)'s)"))
                } else {
                    configuration.path = path
                }
            } else {
                problems.add(
                    invalid(
                        "retention.path",
                        "a path such as \"/v1/retention/realtime\": '/' then segments of letters, digits, '-', '.', "
                            + "'_' or '~', at most 256 characters", value))
            }
        }
        // Apple's names of the App Store Server environments, read in any case (EnumeratedValue).
        let environmentsRule = "a list of \"Sandbox\" and/or \"Production\" (in any case), each once"
        if case .array(let names)? = json["environments"], !names.isEmpty {
            for (index, name) in names.enumerated() {
                let field = "retention.environments[\(index)]"
                guard case .string(let text) = name else {
                    problems.add(invalid(field, environmentsRule, name))
                    continue
                }
                guard let environment = AppleEnvironment(anyCase: text),
                    environment == .sandbox || environment == .production
                else {
                    problems.add(
                        .invalidField(
                            source: source, field: field,
                            expected: "\(environmentsRule) (found \(EnumeratedSpelling.shown(text)))"))
                    continue
                }
                guard !configuration.environments.contains(environment) else {
                    problems.add(
                        .invalidField(
                            source: source, field: field,
                            expected: "\(environmentsRule) (found \(environment.rawValue) a second time)"))
                    continue
                }
                configuration.environments.append(environment)
            }
        } else {
            problems.add(invalid("retention.environments", environmentsRule, json["environments"]))
        }
        if let value = json["rootCertificates"] {
            if case .array(let files) = value, (1...16).contains(files.count) {
                for (index, file) in files.enumerated() {
                    guard case .string(let path) = file, !path.isEmpty, !path.utf8.contains(where: { $0 < 0x20 })
                    else {
                        problems.add(invalid("retention.rootCertificates[\(index)]", "the path of a PEM file", file))
                        continue
                    }
                    configuration.rootCertificateFiles.append(resolve(path, in: folder))
                }
            } else {
                problems.add(invalid("retention.rootCertificates", "a list of 1 to 16 PEM files", value))
            }
        }
        if let value = json["maxRequestAgeSeconds"] {
            let range = RetentionSettings.maxRequestAgeRange
            if let seconds = value.exactInteger, range.contains(Int(clamping: seconds)) {
                configuration.maxRequestAgeSeconds = Int(seconds)
            } else {
                problems.add(
                    invalid(
                        "retention.maxRequestAgeSeconds",
                        "an integer from \(range.lowerBound) to \(range.upperBound)", value))
            }
        }
        if let value = json["apps"] {
            if case .object(let entries) = value {
                for (bundleId, rules) in entries {
                    let field = "retention.apps[\"\(bundleId)\"]"
                    guard let app = apps[bundleId] else {
                        problems.add(
                            .invalidField(
                                source: source, field: field,
                                expected: "an app of \"apps\" (found \(bundleId), which \"apps\" does not have)"))
                        continue
                    }
                    guard app.appAppleId != nil else {
                        problems.add(
                            .invalidField(
                                source: source, field: field,
                                expected: "an app with \"appAppleId\" in apps[\"\(bundleId)\"] (Apple's requests "
                                    + "name the app only by it; found none)"))
                        continue
                    }
                    do {
                        configuration.rules[bundleId] = try RetentionRules(parsing: rules, path: field)
                    } catch {
                        problems.add(.retentionRules(source: source, error))
                    }
                }
            } else {
                problems.add(invalid("retention.apps", "an object mapping bundle IDs to rules", value))
            }
        }
        // Test roots never answer production; checked on environments read without a problem, so that
        // the index it names is the file's.
        if !problems.touches("retention.environments") {
            _ = problems.attempt { () throws(ConfigurationError) in try configuration.checkTrust(source: source) }
        }
        if !apps.values.contains(where: { $0.appAppleId != nil }) && !problems.touches("apps") {
            problems.add(
                .invalidField(
                    source: source, field: "retention",
                    expected: "at least one app with \"appAppleId\" in \"apps\" for the endpoint to serve (found none)"
                ))
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

    /// The apps' App Apple IDs, each at most once: a problem for every app that repeats one.
    static func checkAppAppleIds(
        _ apps: [String: AppCredentials], source: String, problems: inout ConfigurationProblems
    ) {
        var seen: [Int64: String] = [:]
        for bundleId in apps.keys.sorted() {
            guard let id = apps[bundleId]?.appAppleId else { continue }
            if let other = seen[id] {
                problems.add(
                    .invalidField(
                        source: source, field: "apps[\"\(bundleId)\"].appAppleId",
                        expected: "an App Apple ID of its own (found \(id), which \(other) has too)"))
            } else {
                seen[id] = bundleId
            }
        }
    }
}
