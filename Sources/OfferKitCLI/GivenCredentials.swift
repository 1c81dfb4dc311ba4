import Foundation
import OfferKitSigningCLI
import OfferSigning

/// The credentials `verify` compares with what a JWS or legacy signature names: a `--key-id`,
/// `--issuer-id` or `--bundle-id` flag, else its `OFFERKIT_*` variable (the same credential, for
/// pipelines). A config file and a key file's name are not among them: they pick the key, and a
/// config names several apps, so their values say nothing about one artifact.
struct GivenCredentials {
    /// A credential given, and the flag or variable it came from (`--key-id`, `OFFERKIT_KEY_ID`).
    struct Given {
        let value: String
        let source: String
    }

    private let given: [ExpectedCredentials.Credential: Given]

    /// Reads the flags, then the environment. A set-but-empty variable has already been refused
    /// by ``Credentials/Identifiers``.
    init(_ options: CredentialOptions, environment: [String: String]) {
        var given: [ExpectedCredentials.Credential: Given] = [:]
        for credential in ExpectedCredentials.Credential.allCases {
            let (flagValue, flag, variable) =
                switch credential {
                case .keyId: (options.keyId, "--key-id", "OFFERKIT_KEY_ID")
                case .issuerId: (options.issuerId, "--issuer-id", "OFFERKIT_ISSUER_ID")
                case .bundleId: (options.bundleId, "--bundle-id", "OFFERKIT_BUNDLE_ID")
                }
            if let flagValue {
                given[credential] = Given(value: flagValue, source: flag)
            } else if let value = environment[variable] {
                given[credential] = Given(value: value, source: variable)
            }
        }
        self.given = given
    }

    subscript(credential: ExpectedCredentials.Credential) -> Given? { given[credential] }

    /// What the verifier must compare.
    var expected: ExpectedCredentials {
        ExpectedCredentials(
            keyId: given[.keyId]?.value, issuerId: given[.issuerId]?.value, bundleId: given[.bundleId]?.value)
    }

    /// The error `verify` exits with for a comparison that failed: a usage error (exit 2) for a
    /// credential the artifact cannot carry, a failed verification (exit 1) naming each credential
    /// that differs and where it was given; `nil` for any other failure.
    func failure(for error: VerificationError) -> CLIError? {
        switch error {
        case .credentialNotApplicable(let credential, let reason):
            let source = given[credential]?.source ?? credential.name
            let remedy = source.hasPrefix("--") ? "leave it out" : "unset it for this command"
            return .usage("\(source) cannot apply: \(reason); \(remedy)")
        case .credentialMismatch(let mismatches):
            let named = mismatches.map { mismatch in
                mismatch.description + (given[mismatch.credential].map { " (\($0.source))" } ?? "")
            }
            return .verificationFailed(named.joined(separator: "; "))
        default:
            return nil
        }
    }
}
