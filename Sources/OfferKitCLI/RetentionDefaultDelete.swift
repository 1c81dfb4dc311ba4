import ArgumentParser
import OfferJSON
import OfferRetentionAPI

/// `offerkit retention default delete PRODUCT_ID LOCALE`: Delete Default Message.
struct RetentionDefaultDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract:
            "Delete the default message of a product in a locale (exit 4 with DefaultMessageNotFoundError if none).")

    @Argument(help: "The auto-renewable subscription's product ID.")
    var productId: String

    @Argument(help: "The locale short code, such as en-US.")
    var locale: String

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let product = try RetentionIdentifier.productId(productId, field: "PRODUCT_ID")
        let checkedLocale = try RetentionIdentifier.locale(locale, field: "LOCALE")
        let environment = try retention.resolvedEnvironment()
        try await retention.run { try await $0.deleteDefaultMessage(productId: product, locale: checkedLocale) }
        try retention.print(
            "default message for \(product) in \(checkedLocale) deleted in \(environment.rawValue)",
            json: [("productId", .string(product)), ("locale", .string(checkedLocale)), ("deleted", .bool(true))])
    }
}
