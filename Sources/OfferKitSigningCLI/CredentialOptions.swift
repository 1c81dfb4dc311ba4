import ArgumentParser

/// The credential flags of the commands that sign with an In-App Purchase key (signing, `token
/// server-api`, `batch`, `verify`, `retention`, `vectors`).
package struct CredentialOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("key-file"),
        help: "The In-App Purchase key (SubscriptionKey_<ID>.p8), or '-' to read it from stdin.")
    package var keyFile: String?

    @Option(
        name: .customLong("key-env"),
        help: "The name of an environment variable that holds the key (PEM or its base64 body).")
    package var keyEnv: String?

    @Option(name: .customLong("key-id"), help: "The key ID (10 characters); inferred from SubscriptionKey_<ID>.p8.")
    package var keyId: String?

    @Option(name: .customLong("issuer-id"), help: "The issuer ID (a UUID) from App Store Connect.")
    package var issuerId: String?

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID.")
    package var bundleId: String?

    @Option(help: "A JSON file mapping bundle IDs to {\"keyFile\", \"keyId\", \"issuerId\"}.")
    package var config: String?

    package var inputs: CredentialInputs {
        CredentialInputs(
            keyFile: keyFile, keyEnv: keyEnv, keyId: keyId, issuerId: issuerId, bundleId: bundleId, config: config)
    }

    /// See ``CredentialInputs/checkStandardInput(_:)``.
    package func checkStandardInput(_ others: KeyValuePairs<String, String?>) throws {
        try inputs.checkStandardInput(others)
    }
}
