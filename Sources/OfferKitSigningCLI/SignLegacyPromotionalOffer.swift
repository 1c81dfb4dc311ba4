import ArgumentParser
import Foundation
import OfferSigning

struct SignLegacyPromotionalOffer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "legacy-promotional-offer",
        abstract: "Sign a promotional offer the legacy way (signature version 1, SKPaymentDiscount).",
        // Written out: --offer-identifier is required (see SignPromotionalOffer).
        usage: OfferIdentifierOption.usage(
            "sign legacy-promotional-offer",
            then: "[--app-account-token <app-account-token>] [--nonce <nonce>] "
                + "[--timestamp <timestamp>]"),
        discussion: """
            Text output is the base64 signature alone; use --format json for keyId, nonce, timestamp and the rest, \
            or pass --nonce and --timestamp yourself. On the device, base64-decode the signature to Data. \
            `verify --legacy-signature-file` takes the --format json object as it is. \
            The name promotional-offer-v1 is deprecated and still accepted.
            """,
        aliases: ["promotional-offer-v1"])

    @Option(name: .customLong("product-id"), help: "The subscription's product ID.")
    var productId: String

    @OptionGroup var offer: OfferIdentifierOption

    @Option(
        name: .customLong("app-account-token"), help: "The app account token or application username (lower-cased).")
    var appAccountToken: String = ""

    @Option(help: "A fixed nonce (UUID). Default: a fresh random one.")
    var nonce: String?

    @Option(parsing: .unconditional, help: "A fixed timestamp in UNIX milliseconds. Default: now.")
    var timestamp: Int64?

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    struct JSONOutput: Encodable {
        var keyId: String
        var nonce: String
        var timestamp: Int64
        var signature: String
        var productId: String
        var offerIdentifier: String
        var appAccountToken: String
        /// The bundle ID that was signed, so `verify --legacy-signature-file` needs no credentials for it.
        var bundleId: String
    }

    func run() async throws {
        Deprecation.noteSubcommandSpelling(after: "sign")
        let signer = try Credentials(credentials, needs: Credentials.signing).signer()
        let offerId = try await offer.checkedValue(bundleId: signer.bundleId, productId: productId)
        let request = LegacyPromotionalOfferRequest(
            productId: productId, offerIdentifier: offerId, appAccountToken: appAccountToken)
        let signature = try signer.sign(request, nonce: try nonce.map(RequestOverrides.uuid), timestamp: timestamp)
        switch output.format {
        case .text: Output.line(signature.signature)
        case .json:
            try Output.json(
                JSONOutput(
                    keyId: signature.keyId, nonce: signature.nonceString, timestamp: signature.timestamp,
                    signature: signature.signature, productId: signature.productId,
                    offerIdentifier: signature.offerIdentifier, appAccountToken: signature.appAccountToken,
                    bundleId: signer.bundleId))
        }
    }
}
