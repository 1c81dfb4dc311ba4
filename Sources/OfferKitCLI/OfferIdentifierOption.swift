import ArgumentParser

/// `--offer-identifier`, with the deprecated `--offer-id` still accepted (hidden, with a note).
struct OfferIdentifierOption: ParsableArguments {
    @Option(name: .customLong("offer-identifier"), help: "The promotional offer's identifier (required).")
    var offerIdentifier: String?

    @Option(name: .customLong("offer-id"), help: .hidden)
    var offerId: String?

    func validate() throws {
        if offerIdentifier == nil, offerId == nil {
            throw ValidationError("Missing expected argument '--offer-identifier <offer-identifier>'")
        }
        if offerIdentifier != nil, offerId != nil {
            throw ValidationError("--offer-identifier and --offer-id are the same flag: give only --offer-identifier")
        }
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
