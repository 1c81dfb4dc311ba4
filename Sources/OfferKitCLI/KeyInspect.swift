import ArgumentParser
import Foundation
import OfferKitSigningCLI
import OfferSigning

struct KeyInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the key's ID, curve, public key and RFC 7638 thumbprint. Never the private key.",
        discussion: """
            The key ID comes from --key-id, OFFERKIT_KEY_ID, the config, or the file's name \
            (SubscriptionKey_<ID>.p8, AuthKey_<ID>.p8, ApiKey_<ID>.p8); a key without one is shown without it \
            (keyId null in JSON): the ID is Apple's name for the key, not part of it.
            """)

    @OptionGroup var credentials: KeyOptions
    @OptionGroup var output: OutputOptions

    struct JSONOutput: Encodable {
        /// `null` when no key ID was given or found in the file name.
        var keyId: String?
        var curve: String
        var thumbprint: String
        var publicKeyPem: String
        /// The public key as a JWK object (not a string holding one).
        var jwk: JWK

        enum CodingKeys: String, CodingKey {
            case keyId, curve, thumbprint, publicKeyPem, jwk
        }

        /// As synthesized, except that a missing key ID is written as `null`, not left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(keyId, forKey: .keyId)
            try container.encode(curve, forKey: .curve)
            try container.encode(thumbprint, forKey: .thumbprint)
            try container.encode(publicKeyPem, forKey: .publicKeyPem)
            try container.encode(jwk, forKey: .jwk)
        }
    }

    /// An EC public key in RFC 7517 form.
    struct JWK: Codable {
        var crv: String
        var kty: String
        var x: String
        var y: String
    }

    func run() throws {
        let resolved = try Credentials(credentials.inputs, keyIdRequired: false)
        let key = resolved.key
        let keyId = resolved.keyIdKnown ? key.keyId : nil
        switch output.format {
        case .json:
            try Output.json(
                JSONOutput(
                    keyId: keyId, curve: "P-256", thumbprint: key.jwkThumbprint, publicKeyPem: key.publicKeyPEM,
                    jwk: try JSONDecoder().decode(JWK.self, from: Data(key.publicJWK.utf8))))
        case .text:
            Output.line("key ID:     \(keyId ?? "none given (--key-id), and the file name has none")")
            Output.line("curve:      P-256 (prime256v1, ES256)")
            Output.line("thumbprint: \(key.jwkThumbprint)  (RFC 7638, SHA-256)")
            Output.line("public JWK: \(key.publicJWK)")
            Output.line(key.publicKeyPEM)
        }
    }
}
