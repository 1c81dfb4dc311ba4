import ArgumentParser
import OfferJSON

/// `offerkit retention url delete`: Delete Realtime URL.
struct RetentionURLDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the environment's real-time URL: Apple then shows default messages only.")

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let environment = try retention.resolvedEnvironment()
        try await retention.run { try await $0.deleteRealtimeURL() }
        try retention.print("realtime URL deleted in \(environment.rawValue)", json: [("deleted", .bool(true))])
    }
}
