/// One app of a configuration file: the bundle ID it is filed under, and where its In-App
/// Purchase key is and who issued it.
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

    package init(bundleId: String, keyFile: String? = nil, keyId: String? = nil, issuerId: String? = nil) {
        self.bundleId = bundleId
        self.keyFile = keyFile
        self.keyId = keyId
        self.issuerId = issuerId
    }

    /// The members of an entry, in the order they are documented.
    package static let members = ["keyFile", "keyId", "issuerId"]

    /// `keyFile`, a relative path resolved against `folder` (the configuration file's folder).
    package func resolvedKeyFile(folder: String) -> String? {
        guard let keyFile else { return nil }
        if keyFile.hasPrefix("/") || folder.isEmpty { return keyFile }
        return folder.hasSuffix("/") ? folder + keyFile : folder + "/" + keyFile
    }

    /// The members this entry lacks, in documented order (`keyFile`, `keyId`, `issuerId`).
    package var missingMembers: [String] {
        [("keyFile", keyFile), ("keyId", keyId), ("issuerId", issuerId)].compactMap { $0.1 == nil ? $0.0 : nil }
    }
}
