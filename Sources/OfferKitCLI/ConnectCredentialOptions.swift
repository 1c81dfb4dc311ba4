import ArgumentParser
import OfferKitSigningCLI

/// The App Store Connect API key of the commands that call App Store Connect (`token connect-api`,
/// `codes apply`, `codes fetch`, `codes deactivate --apply`, `codes lookup`): a team key with its issuer ID, or an
/// individual key (`--individual`). Not an In-App Purchase key; a token for App Store Connect is
/// the team's (or the user's), not an app's, so a bundle ID only picks a config file's entry.
struct ConnectCredentialOptions: ParsableArguments {
    @Option(
        name: .customLong("key-file"),
        help: """
            The App Store Connect API key (AuthKey_<ID>.p8, from Users and Access > Integrations > App Store \
            Connect API), or '-' to read it from stdin.
            """)
    var keyFile: String?

    @Option(
        name: .customLong("key-env"),
        help: "The name of an environment variable that holds the API key (PEM or its base64 body).")
    var keyEnv: String?

    @Option(name: .customLong("key-id"), help: "The API key's ID (10 characters); inferred from AuthKey_<ID>.p8.")
    var keyId: String?

    @Option(
        name: .customLong("issuer-id"),
        help: "The issuer ID (a UUID) shown above a team key's list in App Store Connect; not for --individual.")
    var issuerId: String?

    @Option(
        name: .customLong("bundle-id"),
        help: "With --config: the entry that names the API key (a token for App Store Connect carries no bundle ID).")
    var bundleId: String?

    @Option(help: "A JSON file whose entry {\"keyFile\", \"keyId\", \"issuerId\"} names the API key.")
    var config: String?

    var inputs: CredentialInputs {
        CredentialInputs(
            keyFile: keyFile, keyEnv: keyEnv, keyId: keyId, issuerId: issuerId, bundleId: bundleId, config: config)
    }
}
