import ArgumentParser
import Foundation
import OfferSigning

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a compact JWS, or a legacy promotional offer signature, and print what it says.",
        discussion: """
            JWS: --jws or --jws-file. Legacy: --legacy-signature with --product-id, --offer-id, --nonce, \
            --timestamp and --app-account-token if one was signed; the bundle ID and key ID come from the \
            credentials. Without --public-key the public half of the key in use is used. Exits 1 when the \
            signature does not verify.
            """)

    @Option(help: "The compact JWS.")
    var jws: String?

    @Option(name: .customLong("jws-file"), help: "A file holding the compact JWS, or '-' for stdin.")
    var jwsFile: String?

    @Option(name: .customLong("public-key"), help: "A PEM public key (-----BEGIN PUBLIC KEY-----) to verify with.")
    var publicKey: String?

    @Option(help: "Require this kind: \(JWSKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kind: JWSKind?

    @Option(name: .customLong("legacy-signature"), help: "A legacy signature (standard base64 of DER).")
    var legacySignature: String?

    @Option(name: .customLong("product-id"), help: "Legacy: the signed product ID.")
    var productID: String?

    @Option(name: .customLong("offer-id"), help: "Legacy: the signed offer identifier.")
    var offerID: String?

    @Option(name: .customLong("app-account-token"), help: "Legacy: the signed app account token.")
    var appAccountToken: String = ""

    @Option(help: "Legacy: the signed nonce.")
    var nonce: String?

    @Option(parsing: .unconditional, help: "Legacy: the signed timestamp in milliseconds.")
    var timestamp: Int64?

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    struct JSONOutput: Encodable {
        var valid: Bool
        var kind: String?
        var header: VerifiedJWS.Header?
        var claims: VerifiedJWS.Claims?
        var reason: String?
    }

    func validate() throws {
        let sources = [jws, jwsFile, legacySignature].compactMap { $0 }
        guard sources.count == 1 else {
            throw ValidationError("give exactly one of --jws, --jws-file or --legacy-signature")
        }
        if legacySignature != nil, productID == nil || offerID == nil || nonce == nil || timestamp == nil {
            throw ValidationError("--legacy-signature needs --product-id, --offer-id, --nonce and --timestamp")
        }
    }

    func run() throws {
        try credentials.checkStandardInput(["--jws-file": jwsFile, "--public-key": publicKey])
        do {
            if let legacySignature {
                try verifyLegacy(legacySignature)
            } else {
                try verifyJWS()
            }
        } catch let error as VerificationError {
            if output.format == .json { try Output.json(JSONOutput(valid: false, reason: error.localizedDescription)) }
            throw CLIError.verificationFailed(error.localizedDescription)
        }
    }

    private func verifier(credentials resolved: @autoclosure () throws -> Credentials) throws -> JWSVerifier {
        if let publicKey {
            let pem = try InputFile.read(publicKey, limit: InputFile.tokenLimit, what: "a public key")
            do {
                return try JWSVerifier(publicKeyPEM: String(decoding: pem, as: UTF8.self))
            } catch {
                throw CLIError.credentials("\(publicKey): \(error.localizedDescription)")
            }
        }
        return JWSVerifier(key: try resolved().key)
    }

    private func verifyJWS() throws {
        let text: String
        if let jws {
            text = jws
        } else {
            text = String(
                decoding: try InputFile.read(jwsFile!, limit: InputFile.tokenLimit, what: "a JWS"), as: UTF8.self)
        }
        let verified = try verifier(credentials: try Credentials(credentials)).verify(text, as: kind)
        switch output.format {
        case .json:
            try Output.json(
                JSONOutput(valid: true, kind: verified.kind.rawValue, header: verified.header, claims: verified.claims))
        case .text:
            Output.line("verified: \(verified.kind.rawValue) JWS")
            Output.line("header: \(verified.headerJSON)")
            Output.line("claims: \(verified.payloadJSON)")
            if let request = verified.advancedCommerceRequest {
                Output.line("request: \(String(decoding: request.jsonBytes, as: UTF8.self))")
            }
        }
    }

    private func verifyLegacy(_ signature: String) throws {
        // With --public-key no private key is needed: only the key ID and bundle ID that were signed.
        let keyID: String
        let bundleID: String?
        let verifier: JWSVerifier
        if publicKey != nil {
            let given = try Credentials.Identifiers(credentials, environment: ProcessInfo.processInfo.environment)
            var inferredKeyID: String?
            if case .file(let path)? = given.keySource { inferredKeyID = Credentials.inferKeyID(fromFileName: path) }
            guard let id = given.keyID ?? inferredKeyID else { throw CLIError.credentials(Credentials.noKeyIDMessage) }
            keyID = id
            bundleID = try given.bundleID ?? given.configPath.map { try ConfigFile(path: $0).app(for: nil).bundleID }
            verifier = try self.verifier(credentials: try Credentials(credentials))
        } else {
            let resolved = try Credentials(credentials)
            keyID = resolved.key.keyID
            bundleID = resolved.bundleID
            verifier = JWSVerifier(key: resolved.key)
        }
        guard let bundleID else {
            throw CLIError.credentials("no bundle ID: give --bundle-id, OFFERKIT_BUNDLE_ID or a config file")
        }
        let legacy = LegacyPromotionalOfferSignature(
            keyId: keyID, nonce: try RequestOverrides.uuid(nonce!), timestamp: timestamp!,
            signature: signature, productId: productID!, offerIdentifier: offerID!, appAccountToken: appAccountToken)
        try verifier.verify(legacy, bundleID: bundleID)
        switch output.format {
        case .json: try Output.json(JSONOutput(valid: true, kind: "legacy-promotional-offer"))
        case .text: Output.line("verified: legacy promotional offer signature")
        }
    }
}

extension JWSKind: ExpressibleByArgument {}
