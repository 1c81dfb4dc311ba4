import ArgumentParser

/// `--offer-identifier`, with the deprecated `--offer-id` still accepted (hidden, with a note).
struct OfferIdentifierOption: ParsableArguments {
    @Option(name: .customLong("offer-identifier"), help: "The promotional offer's identifier (required).")
    var offerIdentifier: String?

    @Option(name: .customLong("offer-id"), help: .hidden)
    var offerId: String?

    @Option(
        name: .customLong("ledger"),
        help: ArgumentHelp(
            "A code ledger (as for offerkit codes): refuse an offer identifier that is not one of the product's "
                + "promotional offers the ledger records as created by offerkit codes apply (a product it knows none "
                + "of is not checked). Without it, nothing is checked.",
            valueName: "path-or-url"))
    var ledger: String?

    func validate() throws {
        if offerIdentifier == nil, offerId == nil {
            throw ValidationError("Missing expected argument '--offer-identifier <offer-identifier>'")
        }
        if offerIdentifier != nil, offerId != nil {
            throw ValidationError("--offer-identifier and --offer-id are the same flag: give only --offer-identifier")
        }
    }

    /// The usage line of a signing command with `--offer-identifier`, shown as required (it is
    /// declared optional only so that the deprecated `--offer-id` can stand in for it): `command`'s
    /// product ID and offer identifier, then `options`, then the credentials and the format.
    static func usage(_ command: String, then options: String) -> String {
        "offerkit \(command) --product-id <product-id> --offer-identifier <offer-identifier> \(options) "
            + "[--ledger <path-or-url>] "
            + "[--key-file <key-file>] [--key-env <key-env>] [--key-id <key-id>] [--issuer-id <issuer-id>] "
            + "[--bundle-id <bundle-id>] [--config <config>] [--format <format>]"
    }

    /// The offer identifier, checked against `--ledger` when given (``LedgerOfferCheck``) for the
    /// app `bundleId` (the signer's).
    func checkedValue(bundleId: String, productId: String) async throws -> String {
        let value = try value()
        if let ledger {
            try await LedgerOfferCheck.check(
                ledger: ledger, bundleId: bundleId, productId: productId, offerIdentifier: value)
        }
        return value
    }

    /// The offer identifier given (noting `--offer-id` when that is how it was given).
    func value() throws -> String {
        guard
            let value = try Deprecation.value(
                offerIdentifier, "--offer-identifier", deprecated: offerId, "--offer-id")
        else { throw CLIError.usage("missing --offer-identifier") }
        return value
    }
}
