import ArgumentParser
import OfferSigning

struct SignPromotionalOffer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promotional-offer",
        abstract: "Sign a promotional offer as a V2 compact JWS (StoreKit promotionalOffer(_:compactJWS:)).",
        // Written out: --offer-identifier is required (the generated usage would bracket it, since
        // the deprecated --offer-id may stand in for it).
        usage: OfferIdentifierOption.usage(
            "sign promotional-offer",
            then: "[--transaction-id <transaction-id>] [--nonce <nonce>] "
                + "[--issued-at <issued-at>]"))

    @Option(name: .customLong("product-id"), help: "The subscription's product ID.")
    var productId: String

    @OptionGroup var offer: OfferIdentifierOption

    @Option(name: .customLong("transaction-id"), help: "A transaction ID of the customer (recommended).")
    var transactionId: String?

    @OptionGroup var overrides: RequestOverrides
    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let signer = try Credentials(credentials, needs: Credentials.signing).signer()
        let offerId = try await offer.checkedValue(bundleId: signer.bundleId, productId: productId)
        let request = PromotionalOfferRequest(
            productId: productId, offerIdentifier: offerId, transactionId: transactionId)
        let jws = try signer.sign(request, nonce: try overrides.parsedNonce(), issuedAt: try overrides.issuedAt())
        try SignedJWSOutput.print(jws, keyId: signer.key.keyId, format: output.format) {
            $0.productId = productId
            $0.offerIdentifier = offerId
            $0.transactionId = transactionId
        }
    }
}
