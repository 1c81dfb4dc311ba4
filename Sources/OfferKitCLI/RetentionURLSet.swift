import ArgumentParser
import OfferJSON
import OfferRetentionAPI

/// `offerkit retention url set URL`: Configure Realtime URL.
struct RetentionURLSet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set the environment's real-time URL (https://, at most 256 characters).",
        discussion: """
            In production Apple requires a passed sandbox performance test first (ForbiddenNoPassingTestError, \
            exit 4): set the sandbox URL, run `offerkit retention performance-test start --wait`, then set the \
            production URL.
            """)

    @Argument(help: "The endpoint's URL, such as https://example.com/v1/retention/realtime.")
    var url: String

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let checked = try RealtimeURL.checked(url, field: "URL")
        let environment = try retention.resolvedEnvironment()
        try await retention.run { try await $0.configureRealtimeURL(checked) }
        try retention.print(
            "realtime URL set in \(environment.rawValue): \(checked)", json: [("realtimeURL", .string(checked))])
    }
}
