/// One app of a configuration file: the bundle ID it is filed under, where its In-App Purchase
/// key is and who issued it, and optionally its App Apple ID (`appAppleId`, the number App Store
/// Connect shows; Retention Messaging's requests name the app only by it).
///
/// ```json
/// { "com.example.app": { "keyFile": "SubscriptionKey_2X9R4HXF34.p8", "keyId": "2X9R4HXF34",
///                        "issuerId": "57246542-96fe-1a63-e053-0824d011072a" } }
/// ```
///
/// The CLI's config file is such an object; the service's configuration holds one under `apps`.
/// ``parse(_:)`` is the one reader of both: the strict JSON parser (a duplicate name is refused),
/// each member checked against its rule, and errors that name the field.
package struct AppCredentialsEntry: Sendable, Equatable {
    /// The app's bundle ID (the member name), checked by ``CredentialValidation/isBundleId(_:)``.
    package var bundleId: String
    /// `keyFile` as written: a relative path is relative to the configuration's folder
    /// (``resolvedKeyFile(folder:)``).
    package var keyFile: String?
    /// `keyId`: 10 upper-case letters or digits.
    package var keyId: String?
    /// `issuerId`: a UUID.
    package var issuerId: String?
    /// `appAppleId`: an integer from 1 to 2^53 (optional; only the Get Retention Message endpoint
    /// needs it).
    package var appAppleId: Int64?

    package init(
        bundleId: String, keyFile: String? = nil, keyId: String? = nil, issuerId: String? = nil,
        appAppleId: Int64? = nil
    ) {
        self.bundleId = bundleId
        self.keyFile = keyFile
        self.keyId = keyId
        self.issuerId = issuerId
        self.appAppleId = appAppleId
    }

    /// The members of an entry, in the order they are documented.
    package static let members = ["keyFile", "keyId", "issuerId", "appAppleId"]

    /// The largest App Apple ID accepted: 2^53, the largest integer every JSON reader keeps exactly.
    package static let maximumAppAppleId: Int64 = 1 << 53

    /// `keyFile`, a relative path resolved against `folder` (the configuration file's folder).
    package func resolvedKeyFile(folder: String) -> String? {
        guard let keyFile else { return nil }
        if keyFile.hasPrefix("/") || folder.isEmpty { return keyFile }
        return folder.hasSuffix("/") ? folder + keyFile : folder + "/" + keyFile
    }

    /// The required members this entry lacks, in documented order (`keyFile`, `keyId`, `issuerId`).
    package var missingMembers: [String] {
        [("keyFile", keyFile), ("keyId", keyId), ("issuerId", issuerId)].compactMap { $0.1 == nil ? $0.0 : nil }
    }
}
