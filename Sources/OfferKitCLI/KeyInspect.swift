import ArgumentParser
import Foundation
import OfferSigning

struct KeyInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the key's ID, curve, public key and RFC 7638 thumbprint. Never the private key.")

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    struct JSONOutput: Encodable {
        var keyId: String
        var curve: String
        var thumbprint: String
        var publicKeyPem: String
        /// The public key as a JWK object (not a string holding one).
        var jwk: JWK
    }

    /// An EC public key in RFC 7517 form.
    struct JWK: Codable {
        var crv: String
        var kty: String
        var x: String
        var y: String
    }

    func run() throws {
        let key = try Credentials(credentials).key
        switch output.format {
        case .json:
            try Output.json(
                JSONOutput(
                    keyId: key.keyId, curve: "P-256", thumbprint: key.jwkThumbprint, publicKeyPem: key.publicKeyPEM,
                    jwk: try JSONDecoder().decode(JWK.self, from: Data(key.publicJWK.utf8))))
        case .text:
            Output.line("key ID:     \(key.keyId)")
            Output.line("curve:      P-256 (prime256v1, ES256)")
            Output.line("thumbprint: \(key.jwkThumbprint)  (RFC 7638, SHA-256)")
            Output.line("public JWK: \(key.publicJWK)")
            Output.line(key.publicKeyPEM)
        }
    }
}
