import ArgumentParser

/// The credential flags every signing, token, verify and key command takes.
struct CredentialOptions: ParsableArguments {
    @Option(name: .customLong("key-file"), help: "The In-App Purchase key (.p8), or '-' to read it from stdin.")
    var keyFile: String?

    @Option(
        name: .customLong("key-env"),
        help: "The name of an environment variable that holds the key (PEM or its base64 body).")
    var keyEnv: String?

    @Option(name: .customLong("key-id"), help: "The key ID (10 characters); inferred from SubscriptionKey_<ID>.p8.")
    var keyId: String?

    @Option(name: .customLong("issuer-id"), help: "The issuer ID (a UUID) from App Store Connect.")
    var issuerId: String?

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID.")
    var bundleId: String?

    @Option(help: "A JSON file mapping bundle IDs to {\"keyFile\", \"keyId\", \"issuerId\"}.")
    var config: String?
}

extension CredentialOptions {
    /// `--key-file -` reads the key from stdin, so no other option may read stdin too.
    func checkStandardInput(_ others: KeyValuePairs<String, String?>) throws {
        guard keyFile == "-" else { return }
        for (flag, value) in others where value == "-" {
            throw CLIError.usage("--key-file - and \(flag) - would both read stdin; give one of them a file")
        }
    }
}
