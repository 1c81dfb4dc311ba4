/// What a command's credential flags gave, before the environment, a config file or the demo key
/// fill the rest (see ``Credentials``). Each command offers the flags that apply to it
/// (``CredentialOptions`` for signing, ``ConnectCredentialOptions`` for App Store Connect,
/// ``KeyOptions`` for `key inspect`); a flag a command does not offer is `nil` here.
struct CredentialInputs {
    var keyFile: String?
    var keyEnv: String?
    var keyId: String?
    var issuerId: String?
    var bundleId: String?
    var config: String?

    /// `--key-file -` reads the key from stdin, so no other option may read stdin too.
    func checkStandardInput(_ others: KeyValuePairs<String, String?>) throws {
        guard keyFile == "-" else { return }
        for (flag, value) in others where value == "-" {
            throw CLIError.usage("--key-file - and \(flag) - would both read stdin; give one of them a file")
        }
    }
}
