import Foundation
import OfferJSON
import OfferSigning

/// A JSON file mapping bundle IDs to key file, key ID and issuer ID:
///
/// ```json
/// { "com.example.app": { "keyFile": "SubscriptionKey_2X9R4HXF34.p8", "keyId": "2X9R4HXF34",
///                        "issuerId": "57246542-96fe-1a63-e053-0824d011072a" } }
/// ```
/// Read by the signing library's ``AppCredentialsEntry`` parser, as the service reads its `apps`:
/// duplicate names are refused, and each error names its field. Every member may be left out
/// (flags and the environment fill the rest). A relative `keyFile` is resolved against the config
/// file's folder.
struct ConfigFile {
    typealias App = AppCredentialsEntry

    let path: String
    /// The apps, in the order the file lists them.
    let apps: [App]

    init(path: String) throws {
        let bytes: [UInt8]
        do {
            bytes = try BoundedInput.read(path: path, limit: InputFile.configLimit, accepting: .regularFile)
        } catch {
            throw CLIError.credentials("cannot read config file \(path): \(error.reason)")
        }
        do {
            apps = try AppCredentialsEntry.parse(bytes)
        } catch {
            throw CLIError.credentials("config file \(path): \(error.errorDescription ?? error.field)")
        }
        self.path = path
    }

    /// The entry for `bundleId`, or the only entry when no bundle ID is given.
    func app(for bundleId: String?) throws -> (bundleId: String, app: App) {
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
    func keyPath(_ app: App) -> String? {
        app.resolvedKeyFile(folder: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }
}
