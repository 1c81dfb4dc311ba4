import ArgumentParser
import Foundation
import OfferKitSigningCLI
import OfferSigning

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a compact JWS, or a legacy promotional offer signature, and print what it says.",
        discussion: """
            JWS: --jws or --jws-file; --kind takes the operation names (advanced-commerce-api is a deprecated \
            spelling of advanced-commerce). Legacy: --legacy-signature-file with the JSON object that \
            `sign legacy-promotional-offer --format json` prints (or - for stdin), or --legacy-signature with \
            --product-id, --offer-identifier, --nonce, --timestamp and --app-account-token if one was signed. \
            The key ID that was signed comes from the object's keyId, else --key-id (or OFFERKIT_KEY_ID, the key \
            file's name, the config); the bundle ID from the object's bundleId, else --bundle-id (or \
            OFFERKIT_BUNDLE_ID), else the config. Without --public-key the public half of the key in use is used. \
            Every --key-id, --issuer-id and --bundle-id (or OFFERKIT_KEY_ID, OFFERKIT_ISSUER_ID, \
            OFFERKIT_BUNDLE_ID) given is compared with the JWS's kid, iss and bid (a legacy signature's keyId \
            and bundle ID); one the artifact cannot carry (--bundle-id for an App Store Connect API token, \
            --issuer-id for a legacy signature) is a usage error (exit 2). Values from a config file only pick \
            the key and are not compared. Exits 1 when the signature or claims do not verify or a credential \
            differs.
            """)

    @Option(help: "The compact JWS.")
    var jws: String?

    @Option(name: .customLong("jws-file"), help: "A file holding the compact JWS, or '-' for stdin.")
    var jwsFile: String?

    @Option(name: .customLong("public-key"), help: "A PEM public key (-----BEGIN PUBLIC KEY-----) to verify with.")
    var publicKey: String?

    @Option(help: "Require this kind of JWS (an operation name).")
    var kind: JWSKind?

    @Option(name: .customLong("legacy-signature"), help: "A legacy signature (standard base64 of DER).")
    var legacySignature: String?

    @Option(
        name: .customLong("legacy-signature-file"),
        help: "A file (or '-' for stdin) holding the JSON object of `sign legacy-promotional-offer --format json`.")
    var legacySignatureFile: String?

    @Option(name: .customLong("product-id"), help: "Legacy: the signed product ID.")
    var productId: String?

    @Option(name: .customLong("offer-identifier"), help: "Legacy: the signed offer identifier.")
    var offerIdentifier: String?

    @Option(name: .customLong("offer-id"), help: .hidden)
    var offerId: String?

    @Option(name: .customLong("app-account-token"), help: "Legacy: the signed app account token.")
    var appAccountToken: String?

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
        let sources = [jws, jwsFile, legacySignature, legacySignatureFile].compactMap { $0 }
        guard sources.count == 1 else {
            throw ValidationError(
                "give exactly one of --jws, --jws-file, --legacy-signature or --legacy-signature-file")
        }
        if offerIdentifier != nil, offerId != nil {
            throw ValidationError("--offer-identifier and --offer-id are the same flag: give only --offer-identifier")
        }
        let signedValues = [productId, offerIdentifier ?? offerId, nonce, timestamp.map(String.init)]
        if legacySignature != nil, signedValues.contains(where: { $0 == nil }) {
            throw ValidationError(
                "--legacy-signature needs --product-id, --offer-identifier, --nonce and --timestamp "
                    + "(or give --legacy-signature-file with the JSON object that sign prints)")
        }
        if legacySignatureFile != nil, signedValues.contains(where: { $0 != nil }) || appAccountToken != nil {
            throw ValidationError(
                "--legacy-signature-file takes the signed values from its JSON object: leave out --product-id, "
                    + "--offer-identifier, --nonce, --timestamp and --app-account-token")
        }
    }

    func run() throws {
        try credentials.checkStandardInput([
            "--jws-file": jwsFile, "--public-key": publicKey, "--legacy-signature-file": legacySignatureFile,
        ])
        if publicKey == "-", jwsFile == "-" || legacySignatureFile == "-" {
            throw CLIError.usage("--public-key - and another input - would both read stdin; give one of them a file")
        }
        // Refuses a set-but-empty variable before anything is compared with it.
        _ = try Credentials.Identifiers(credentials, environment: CommandContext.current.environment)
        let given = GivenCredentials(credentials, environment: CommandContext.current.environment)
        let isLegacy = legacySignature != nil || legacySignatureFile != nil
        if isLegacy, let issuer = given[.issuerId] {
            throw CLIError.usage(
                "\(issuer.source) cannot apply: a legacy promotional offer signature signs no issuer ID; "
                    + (issuer.source.hasPrefix("--") ? "leave it out" : "unset it for this command"))
        }
        do {
            if let legacySignature {
                try verifyLegacy(try legacyFromFlags(signature: legacySignature), given: given)
            } else if let legacySignatureFile {
                try verifyLegacy(try legacyFromFile(legacySignatureFile), given: given)
            } else {
                try verifyJWS(given: given)
            }
        } catch let error as VerificationError {
            let failure = given.failure(for: error) ?? .verificationFailed(error.localizedDescription)
            if output.format == .json, case .verificationFailed(let reason) = failure {
                try Output.json(JSONOutput(valid: false, reason: reason))
            }
            throw failure
        }
    }

    private func verifier(
        credentials resolved: @autoclosure () throws -> Credentials, expected: ExpectedCredentials
    ) throws -> JWSVerifier {
        if let publicKey {
            let pem = try InputFile.read(publicKey, limit: InputFile.tokenLimit, what: "a public key")
            do {
                return try JWSVerifier(publicKeyPEM: String(decoding: pem, as: UTF8.self), expected: expected)
            } catch {
                throw CLIError.credentials("\(publicKey): \(error.localizedDescription)")
            }
        }
        return JWSVerifier(key: try resolved().key, expected: expected)
    }

    private func verifyJWS(given: GivenCredentials) throws {
        let text: String
        if let jws {
            text = jws
        } else {
            text = String(
                decoding: try InputFile.read(jwsFile!, limit: InputFile.tokenLimit, what: "a JWS"), as: UTF8.self)
        }
        let verifier = try verifier(credentials: try Credentials(credentials), expected: given.expected)
        let verified = try verifier.verify(text, as: kind)
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

    /// The signed values of a legacy signature, before the key ID and bundle ID are settled.
    struct LegacyInput {
        var keyId: String?
        var bundleId: String?
        var nonce: UUID
        var timestamp: Int64
        var signature: String
        var productId: String
        var offerIdentifier: String
        var appAccountToken: String
    }

    private func legacyFromFlags(signature: String) throws -> LegacyInput {
        // validate() made sure these are all given.
        guard let productId, let nonce, let timestamp,
            let offer = try Deprecation.value(offerIdentifier, "--offer-identifier", deprecated: offerId, "--offer-id")
        else {
            throw CLIError.usage("--legacy-signature needs --product-id, --offer-identifier, --nonce and --timestamp")
        }
        return LegacyInput(
            keyId: nil, bundleId: nil, nonce: try RequestOverrides.uuid(nonce), timestamp: timestamp,
            signature: signature, productId: productId, offerIdentifier: offer, appAccountToken: appAccountToken ?? "")
    }

    private func legacyFromFile(_ path: String) throws -> LegacyInput {
        let bytes = try InputFile.read(path, limit: InputFile.tokenLimit, what: "a legacy signature object")
        let input: LegacyPromotionalOfferSignature.JSONInput
        do {
            input = try LegacyPromotionalOfferSignature.read(json: bytes)
        } catch {
            throw CLIError.invalidInput(
                "\(path == "-" ? "stdin" : path): \(error.localizedDescription) "
                    + "(expected the object that `sign legacy-promotional-offer --format json` prints)")
        }
        for field in input.deprecatedFields {
            if let note = BatchSigner.deprecationNote(for: field) { Deprecation.note(note) }
        }
        let signed = input.signature
        return LegacyInput(
            keyId: signed.keyId, bundleId: input.bundleId, nonce: signed.nonce, timestamp: signed.timestamp,
            signature: signed.signature, productId: signed.productId, offerIdentifier: signed.offerIdentifier,
            appAccountToken: signed.appAccountToken)
    }

    /// Verifies with the key ID and bundle ID the object names (else those given, else the
    /// config's), then compares the key ID and bundle ID given (`givenCredentials`) with them.
    private func verifyLegacy(_ input: LegacyInput, given givenCredentials: GivenCredentials) throws {
        // With --public-key no private key is needed: only the key ID and bundle ID that were signed.
        let keyId: String
        let bundleId: String?
        let verifier: JWSVerifier
        if publicKey != nil {
            let given = try Credentials.Identifiers(credentials, environment: CommandContext.current.environment)
            var inferredKeyId: String?
            if case .file(let path)? = given.keySource { inferredKeyId = Credentials.inferKeyId(fromFileName: path) }
            let config = try given.configPath.map {
                try ConfigFile(path: $0).app(for: given.bundleId ?? input.bundleId)
            }
            let id = input.keyId ?? given.keyId ?? inferredKeyId ?? config?.app.keyId
            let bundle = input.bundleId ?? given.bundleId ?? config?.bundleId
            // Everything missing in one message: the key ID and the bundle ID were both signed.
            let missing: [Credentials.Missing] = (id == nil ? [.keyId] : []) + (bundle == nil ? [.bundleId] : [])
            guard let id, let bundle, missing.isEmpty else {
                throw CLIError.credentials(
                    Credentials.missingMessage(missing) + "; or give --legacy-signature-file with the object "
                        + "`sign legacy-promotional-offer --format json` prints, which carries keyId and bundleId")
            }
            keyId = id
            bundleId = bundle
            verifier = try self.verifier(credentials: try Credentials(credentials), expected: givenCredentials.expected)
        } else {
            // The object's keyId names the given key when nothing else does (not when no key is given:
            // then the demo-key rule applies unchanged).
            var options = credentials
            let given = try Credentials.Identifiers(credentials, environment: CommandContext.current.environment)
            if given.keySource != nil, given.keyId == nil, let id = input.keyId { options.keyId = id }
            let resolved = try Credentials(options, needs: input.bundleId == nil ? [.bundleId] : [])
            keyId = input.keyId ?? resolved.key.keyId
            bundleId = input.bundleId ?? resolved.bundleId
            verifier = JWSVerifier(key: resolved.key, expected: givenCredentials.expected)
        }
        guard let bundleId else {
            throw CLIError.credentials(
                Credentials.missingMessage([.bundleId]) + "; or bundleId in the JSON object")
        }
        let legacy = LegacyPromotionalOfferSignature(
            keyId: keyId, nonce: input.nonce, timestamp: input.timestamp, signature: input.signature,
            productId: input.productId, offerIdentifier: input.offerIdentifier,
            appAccountToken: input.appAccountToken)
        try verifier.verify(legacy, bundleId: bundleId)
        switch output.format {
        case .json: try Output.json(JSONOutput(valid: true, kind: SigningOperation.legacyPromotionalOffer.rawValue))
        case .text: Output.line("verified: legacy promotional offer signature")
        }
    }

}

/// `--kind` takes the operation names; a deprecated spelling (`advanced-commerce-api`) is accepted with a note.
extension JWSKind: ExpressibleByArgument {
    public init?(argument: String) {
        guard let (kind, deprecated) = JWSKind.named(argument) else { return nil }
        if deprecated, let note = SigningOperation.deprecationNote(for: argument) { Deprecation.note(note) }
        self = kind
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
