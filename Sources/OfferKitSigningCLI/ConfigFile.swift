import Foundation
import OfferJSON
import OfferSigning

/// A JSON file mapping bundle IDs to key file, key ID and issuer ID:
///
/// ```json
/// { "com.example.app": { "keyFile": "SubscriptionKey_2X9R4HXF34.p8", "keyId": "2X9R4HXF34",
///                        "issuerId": "57246542-96fe-1a63-e053-0824d011072a" } }
/// ```
/// or a service configuration (`offerkit serve --config`), whose `apps` are the same entries: one
/// credentials format serves both. Read by the signing library's ``AppCredentialsEntry`` parser, as
/// the service reads its `apps`: duplicate names are refused, and each error names its field. Every
/// member may be left out (flags and the environment fill the rest). A relative `keyFile` is
/// resolved against the config file's folder.
package struct ConfigFile {
    package typealias App = AppCredentialsEntry

    package let path: String
    /// The apps, in the order the file lists them.
    package let apps: [App]

    /// The members of a service configuration (`offerkit serve --config`), in its documented order:
    /// the service's `ServiceConfiguration.members`, which a test holds this list equal to (the
    /// signing commands are built without the service).
    package static let serviceConfigurationMembers = [
        "apps", "connectApiKey", "apiKeys", "limits", "ledger", "tls", "retention",
    ]

    package init(path: String) throws {
        let bytes: [UInt8]
        do {
            bytes = try BoundedInput.read(path: path, limit: InputFile.configLimit, accepting: .regularFile)
        } catch {
            throw CLIError.credentials("cannot read config file \(path): \(error.reason)")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw CLIError.credentials("config file \(path): not JSON: \(error.message)")
        }
        let (entries, within) = try Self.entries(of: json, path: path)
        do {
            apps = try AppCredentialsEntry.parse(entries)
        } catch {
            throw CLIError.credentials("config file \(path)\(within): \(error.errorDescription ?? error.field)")
        }
        self.path = path
    }

    /// The object that maps bundle IDs to entries: the document, or the `apps` of a service
    /// configuration (`within` then says so in messages).
    /// - Throws: for a service configuration with a member that a service configuration does not
    ///   have, which neither format explains.
    package static func entries(of json: JSONValue, path: String) throws -> (entries: JSONValue, within: String) {
        guard case .object(let members) = json, case .object(let apps)? = json["apps"],
            apps.allSatisfy({ if case .object = $0.value { true } else { false } })
        else { return (json, "") }
        // A service configuration: its apps are the entries; the other members are the service's.
        let known = serviceConfigurationMembers
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw CLIError.credentials(
                "config file \(path) has \"apps\", as a service configuration (offerkit serve --config) does, but "
                    + "also \(EnumeratedSpelling.shown(unknown.key)), which a service configuration does not have "
                    + "(its members: \(known.joined(separator: ", "))); give a file that maps bundle IDs to keys "
                    + "(keys-example/config.json) or a service configuration (keys-example/service.json)")
        }
        return (json["apps"] ?? json, " (its \"apps\", as in a service configuration)")
    }

    /// The entry for `bundleId`, or the only entry when no bundle ID is given.
    package func app(for bundleId: String?) throws -> (bundleId: String, app: App) {
        if let bundleId {
            guard let app = apps.first(where: { $0.bundleId == bundleId }) else {
                throw CLIError.credentials(
                    "bundle ID \(bundleId) is not in config file \(path) (it has: \(apps.map(\.bundleId).sorted().joined(separator: ", ")))"
                )
            }
            return (bundleId, app)
        }
        guard apps.count == 1, let only = apps.first else {
            throw CLIError.credentials(
                "config file \(path) has \(apps.count) apps: choose one with --bundle-id or OFFERKIT_BUNDLE_ID")
        }
        return (only.bundleId, only)
    }

    /// `keyFile` resolved against the config's folder.
    package func keyPath(_ app: App) -> String? {
        app.resolvedKeyFile(folder: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }
}
