/// What a command's credential flags gave, before the environment, a config file or the demo key
/// fill the rest (see ``Credentials``). Each command offers the flags that apply to it
/// (``CredentialOptions`` for signing, ``ConnectCredentialOptions`` for App Store Connect,
/// ``KeyOptions`` for `key inspect`); a flag a command does not offer is `nil` here.
package struct CredentialInputs {
    package var keyFile: String?
    package var keyEnv: String?
    package var keyId: String?
    package var issuerId: String?
    package var bundleId: String?
    package var config: String?

    package init(
        keyFile: String? = nil, keyEnv: String? = nil, keyId: String? = nil, issuerId: String? = nil,
        bundleId: String? = nil, config: String? = nil
    ) {
        self.keyFile = keyFile
        self.keyEnv = keyEnv
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.config = config
    }

    /// `--key-file -` reads the key from stdin, so no other option may read stdin too.
    package func checkStandardInput(_ others: KeyValuePairs<String, String?>) throws {
        guard keyFile == "-" else { return }
        for (flag, value) in others where value == "-" {
            throw CLIError.usage("--key-file - and \(flag) - would both read stdin; give one of them a file")
        }
    }
}
