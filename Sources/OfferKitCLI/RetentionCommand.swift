import ArgumentParser
import OfferKitSigningCLI

/// `offerkit retention …`: Apple's Retention Messaging API (App Store Server API): the real-time
/// URL, the performance test, messages, images and default messages.
struct RetentionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract:
            "Apple's Retention Messaging API: real-time URL, performance test, messages, images, default messages; "
            + "trying an endpoint with a test chain.",
        discussion: """
            Credentials: the app's In-App Purchase key, issuer ID and bundle ID, given as for `offerkit token \
            server-api` (the token's bid names the app). --environment sandbox (the default) or production picks \
            Apple's base URL (https://api.storekit-sandbox.apple.com or https://api.storekit.apple.com, as Apple's libraries) \
            and the environment's data; --api-base-url or OFFERKIT_SERVER_API_URL sends elsewhere (plain http only \
            on loopback). Every body is checked against Apple's documented limits before it is sent.

            Exit codes: 0 ok, 1 the performance test failed, 2 usage, 3 Apple refused the key or token (401), \
            4 Apple refused the input (its error code and meaning are printed) or OfferKit did before sending, \
            5 Apple could not be reached, kept failing or answered something undocumented, 75 the performance \
            test is still running (result without --wait). test-chain and try-endpoint need no Apple account and \
            say their own exit codes.
            """,
        subcommands: [
            RetentionURLCommand.self, RetentionPerformanceTestCommand.self, RetentionMessageCommand.self,
            RetentionImageCommand.self, RetentionDefaultCommand.self, RetentionTestChainCommand.self,
            RetentionTryEndpoint.self,
        ]
    )
}
