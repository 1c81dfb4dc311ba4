import Foundation
import OfferRetentionEndpoint

/// A service configuration that cannot be used. Messages name the file and field; they never
/// contain key material.
public enum ConfigurationError: Error, Sendable, Equatable, LocalizedError {
    /// The file cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not JSON.
    case notJSON(path: String, detail: String)
    /// A field is missing or invalid.
    case invalidField(source: String, field: String, expected: String)
    /// Several fields are missing or invalid: every problem of the configuration, each with its
    /// source and field, in the order they were found.
    case invalidFields([ConfigurationProblem])
    /// An app's key cannot be loaded.
    case keyNotLoaded(bundleId: String, reason: String)
    /// Authentication is on but there is no API key.
    case noAPIKeys
    /// Authentication is off on an address that is not loopback.
    case unauthenticatedNonLoopback(host: String)
    /// The configuration names a ledger (`location`, its password hidden), but the service was
    /// created without the opened ledger.
    case ledgerNotOpened(location: String)
    /// The Get Retention Message endpoint's rules cannot be used (`retention.apps[…]`).
    case retentionRules(source: String, RetentionRulesError)
    /// A root certificate of `retention.rootCertificates` cannot be read.
    case rootCertificateNotLoaded(file: String, reason: String)
    /// The Get Retention Message endpoint cannot be set up (two apps with one App Apple ID, …).
    case retentionNotSetUp(reason: String)
    /// The TLS certificate chain or private key (`field`: `tls.certificateChain`, `--tls-private-key`, …)
    /// in `file` cannot be used; `problem` says what was expected and found, never the key.
    case tlsNotLoaded(field: String, file: String, problem: String)

    public var errorDescription: String? {
        switch self {
        case .unreadable(let path, let reason): "cannot read service configuration \(path): \(reason)"
        case .notJSON(let path, let detail): "service configuration \(path) is not JSON: \(detail)"
        case .invalidField(let source, let field, let expected): "\(source): \(field): expected \(expected)"
        case .invalidFields(let problems):
            "the service configuration has \(problems.count) problems:\n"
                + problems.map { "  \($0)" }.joined(separator: "\n")
        case .keyNotLoaded(let bundleId, let reason): "cannot load the key of app \(bundleId): \(reason)"
        case .noAPIKeys:
            "no API keys are configured: add one with `offerkit api-key create` (to config \"apiKeys\" or "
                + "OFFERKIT_API_KEYS), or run with --no-auth on a loopback address"
        case .unauthenticatedNonLoopback(let host):
            "--no-auth is refused on \(host): without authentication the service only listens on a loopback "
                + "address (127.0.0.1, ::1 or localhost)"
        case .ledgerNotOpened(let location):
            "the configuration names the ledger \(location), but the service was given no opened ledger: open it "
                + "(CodeLedger.sqlite(path:) or CodeLedger.withPostgres) and pass it as OfferService(configuration:ledger:)"
        case .retentionRules(let source, let error): "\(source): \(error.errorDescription ?? error.path)"
        case .rootCertificateNotLoaded(let file, let reason):
            "cannot read the root certificate \(file) (retention.rootCertificates): \(reason)"
        case .retentionNotSetUp(let reason): "the Get Retention Message endpoint cannot be set up: \(reason)"
        case .tlsNotLoaded(let field, let file, let problem): "cannot use \(file) for TLS (\(field)): \(problem)"
        }
    }
}

extension ConfigurationError {
    /// The problems this error stands for: the list of ``invalidFields(_:)``, else one, with the
    /// field it names (`(top level)` for a file, `(service)` for the service as a whole).
    public var problems: [ConfigurationProblem] {
        switch self {
        case .invalidFields(let problems):
            return problems
        case .invalidField(let source, let field, let expected):
            return [ConfigurationProblem(source: source, field: field, message: "expected \(expected)")]
        case .retentionRules(let source, let error):
            let text = error.errorDescription ?? error.path
            let message = text.hasPrefix(error.path + ": ") ? String(text.dropFirst(error.path.count + 2)) : text
            return [ConfigurationProblem(source: source, field: error.path, message: message)]
        case .unreadable(let path, _), .notJSON(let path, _):
            return [ConfigurationProblem(source: path, field: "(top level)", message: errorDescription ?? "")]
        case .rootCertificateNotLoaded(let file, _):
            return [
                ConfigurationProblem(
                    source: file, field: "retention.rootCertificates", message: errorDescription ?? "")
            ]
        default:
            return [ConfigurationProblem(source: "", field: "(service)", message: errorDescription ?? "")]
        }
    }
}
