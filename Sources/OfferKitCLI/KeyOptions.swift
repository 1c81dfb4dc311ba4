import ArgumentParser
import OfferKitSigningCLI

/// The flags that name a key alone (`key inspect`): no issuer ID, which a key does not carry.
struct KeyOptions: ParsableArguments {
    @Option(
        name: .customLong("key-file"),
        help: "The key (a .p8 file: SubscriptionKey_<ID>.p8, AuthKey_<ID>.p8), or '-' to read it from stdin.")
    var keyFile: String?

    @Option(
        name: .customLong("key-env"),
        help: "The name of an environment variable that holds the key (PEM or its base64 body).")
    var keyEnv: String?

    @Option(
        name: .customLong("key-id"),
        help: "The key ID to show (10 characters). Default: from the file name, else none is shown.")
    var keyId: String?

    @Option(name: .customLong("bundle-id"), help: "With --config: the app whose key to show.")
    var bundleId: String?

    @Option(help: "A JSON file mapping bundle IDs to {\"keyFile\", \"keyId\", \"issuerId\"}.")
    var config: String?

    var inputs: CredentialInputs {
        CredentialInputs(keyFile: keyFile, keyEnv: keyEnv, keyId: keyId, bundleId: bundleId, config: config)
    }
}
