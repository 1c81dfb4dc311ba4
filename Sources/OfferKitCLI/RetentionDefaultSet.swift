import ArgumentParser
import OfferJSON
import OfferRetentionAPI

/// `offerkit retention default set PRODUCT_ID LOCALE --message-identifier UUID`: Configure Default Message.
struct RetentionDefaultSet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract:
            "Make an APPROVED message the default for a subscription product in a locale (replaces the last one).",
        discussion: """
            Apple requires the message and its image APPROVED (MessageNotApprovedError, ImageNotApprovedError), an \
            auto-renewable subscription's product ID (InvalidProductIdError) and one of its locale short codes, such \
            as en-US (InvalidLocaleError; case-sensitive).
            """)

    @Argument(help: "The auto-renewable subscription's product ID.")
    var productId: String

    @Argument(help: "The locale short code, such as en-US (case-sensitive).")
    var locale: String

    @Option(name: .customLong("message-identifier"), help: "The UUID of an APPROVED message.")
    var messageIdentifier: String

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let product = try RetentionIdentifier.productId(productId, field: "PRODUCT_ID")
        let checkedLocale = try RetentionIdentifier.locale(locale, field: "LOCALE")
        let id = try RetentionIdentifier.uuid(messageIdentifier, field: "--message-identifier")
        let environment = try retention.resolvedEnvironment()
        try await retention.run {
            try await $0.configureDefaultMessage(productId: product, locale: checkedLocale, messageIdentifier: id)
        }
        try retention.print(
            "default message for \(product) in \(checkedLocale) (\(environment.rawValue)): \(id)",
            json: [
                ("productId", .string(product)), ("locale", .string(checkedLocale)), ("messageIdentifier", .string(id)),
            ])
    }
}
