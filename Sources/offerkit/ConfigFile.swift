import Foundation
import OfferJSON
import OfferSigning

/// A JSON file mapping bundle IDs to key file, key ID and issuer ID:
///
/// ```json
/// { "com.example.app": { "keyFile": "SubscriptionKey_2X9R4HXF34.p8", "keyId": "2X9R4HXF34",
///                        "issuerId": "57246542-96fe-1a63-e053-0824d011072a" } }
/// ```
/// A relative `keyFile` is resolved against the config file's folder.
struct ConfigFile {
    struct App: Decodable {
        var keyFile: String?
        var keyId: String?
        var issuerId: String?

        static let fields = ["keyFile", "keyId", "issuerId"]
    }

    let path: String
    let apps: [String: App]

    init(path: String) throws {
        let data: Data
        do {
            data = Data(try BoundedInput.read(path: path, limit: InputFile.configLimit))
        } catch {
            throw CLIError.credentials("cannot read config file \(path): \(error.reason)")
        }
        let shape = "a JSON object mapping bundle IDs to {\"keyFile\", \"keyId\", \"issuerId\"} (strings)"
        guard let raw = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CLIError.credentials("config file \(path) is not \(shape)")
        }
        for (bundleID, entry) in raw {
            guard let fields = entry as? [String: Any] else {
                throw CLIError.credentials("config file \(path): \(bundleID) is not an object; expected \(shape)")
            }
            if let unknown = fields.keys.sorted().first(where: { !App.fields.contains($0) }) {
                throw CLIError.credentials(
                    "config file \(path): \(bundleID).\(unknown) is not a known field; expected keyFile, keyId, issuerId"
                )
            }
            if let wrong = fields.keys.sorted().first(where: { !(fields[$0] is String) }) {
                throw CLIError.credentials("config file \(path): \(bundleID).\(wrong) must be a string")
            }
        }
        do {
            apps = try JSONDecoder().decode([String: App].self, from: data)
        } catch {
            throw CLIError.credentials("config file \(path) is not \(shape)")
        }
        self.path = path
    }

    /// The entry for `bundleID`, or the only entry when no bundle ID is given.
    func app(for bundleID: String?) throws -> (bundleID: String, app: App) {
        if let bundleID {
            guard let app = apps[bundleID] else {
                throw CLIError.credentials(
                    "bundle ID \(bundleID) is not in config file \(path) (it has: \(apps.keys.sorted().joined(separator: ", ")))"
                )
            }
            return (bundleID, app)
        }
        guard apps.count == 1, let only = apps.first else {
            throw CLIError.credentials(
                "config file \(path) has \(apps.count) apps: choose one with --bundle-id or OFFERKIT_BUNDLE_ID")
        }
        return (only.key, only.value)
    }

    /// `keyFile` resolved against the config's folder.
    func keyPath(_ app: App) -> String? {
        guard let keyFile = app.keyFile else { return nil }
        if keyFile.hasPrefix("/") { return keyFile }
        return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(keyFile).path
    }
}
