import ArgumentParser
import OfferSigning

struct SignPromotionalOffer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promotional-offer",
        abstract: "Sign a promotional offer as a V2 compact JWS (StoreKit promotionalOffer(_:compactJWS:)).")

    @Option(name: .customLong("product-id"), help: "The subscription's product ID.")
    var productID: String

    @OptionGroup var offer: OfferIdentifierOption

    @Option(name: .customLong("transaction-id"), help: "A transaction ID of the customer (recommended).")
    var transactionID: String?

    @OptionGroup var overrides: RequestOverrides
    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let offerID = try offer.value()
        let signer = try Credentials(credentials).signer()
        let request = PromotionalOfferRequest(
            productId: productID, offerIdentifier: offerID, transactionId: transactionID)
        let jws = try signer.sign(request, nonce: try overrides.parsedNonce(), issuedAt: try overrides.issuedAt())
        try SignedJWSOutput.print(jws, keyID: signer.key.keyID, format: output.format) {
            $0.productId = productID
            $0.offerIdentifier = offerID
            $0.transactionId = transactionID
        }
    }
}
