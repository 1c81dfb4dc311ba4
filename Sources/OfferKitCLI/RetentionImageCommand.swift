import ArgumentParser

/// `offerkit retention image …`: images for messages and bullet points.
struct RetentionImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Images for messages and bullet points: upload (PNG), list (with their state), delete.",
        subcommands: [RetentionImageUpload.self, RetentionImageList.self, RetentionImageDelete.self])
}
