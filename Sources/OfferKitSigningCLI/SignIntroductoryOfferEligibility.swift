import ArgumentParser
import OfferSigning

struct SignIntroductoryOfferEligibility: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "introductory-offer-eligibility",
        abstract: "Sign introductory-offer eligibility as a compact JWS (StoreKit introductoryOfferEligibility).",
        discussion: "The name intro-eligibility is deprecated and still accepted.",
        aliases: ["intro-eligibility"])

    @Option(name: .customLong("product-id"), help: "The subscription's product ID.")
    var productId: String

    @Option(name: .customLong("allow-intro"), help: "Whether the introductory offer applies: true or false.")
    var allowIntro: Bool

    @Option(name: .customLong("transaction-id"), help: "A transaction ID of the customer.")
    var transactionId: String

    @OptionGroup var overrides: RequestOverrides
    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        Deprecation.noteSubcommandSpelling(after: "sign")
        let signer = try Credentials(credentials, needs: Credentials.signing).signer()
        let request = IntroductoryOfferEligibilityRequest(
            productId: productId, allowIntroductoryOffer: allowIntro, transactionId: transactionId)
        let jws = try signer.sign(request, nonce: try overrides.parsedNonce(), issuedAt: try overrides.issuedAt())
        try SignedJWSOutput.print(jws, keyId: signer.key.keyId, format: output.format) {
            $0.productId = productId
            $0.transactionId = transactionId
            $0.allowIntroductoryOffer = allowIntro
        }
    }
}
