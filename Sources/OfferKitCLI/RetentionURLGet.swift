import ArgumentParser
import OfferJSON

/// `offerkit retention url get`: Get Realtime URL.
struct RetentionURLGet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the environment's real-time URL (exit 4 with RealtimeUrlNotFoundError when none is set).")

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let answer = try await retention.run { try await $0.realtimeURL() }
        try retention.print(answer.realtimeURL, json: [("realtimeURL", .string(answer.realtimeURL))])
    }
}
