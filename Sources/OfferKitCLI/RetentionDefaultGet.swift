import ArgumentParser
import OfferJSON
import OfferRetentionAPI

/// `offerkit retention default get PRODUCT_ID LOCALE`: Get Default Message.
struct RetentionDefaultGet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the default message's identifier (exit 4 with DefaultMessageNotFoundError when none is set).")

    @Argument(help: "The auto-renewable subscription's product ID.")
    var productId: String

    @Argument(help: "The locale short code, such as en-US.")
    var locale: String

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let product = try RetentionIdentifier.productId(productId, field: "PRODUCT_ID")
        let checkedLocale = try RetentionIdentifier.locale(locale, field: "LOCALE")
        let answer = try await retention.run { try await $0.defaultMessage(productId: product, locale: checkedLocale) }
        try retention.print(
            answer.messageIdentifier,
            json: [
                ("productId", .string(product)), ("locale", .string(checkedLocale)),
                ("messageIdentifier", .string(answer.messageIdentifier)),
            ])
    }
}
