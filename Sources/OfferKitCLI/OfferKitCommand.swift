import ArgumentParser
import Foundation
import NIOCore
import NIOPosix
import OfferKitSigningCLI
import OfferSigning

/// `offerkit`: signatures, tokens and verification for App Store In-App Purchases.
struct OfferKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offerkit",
        abstract: "Sign promotional offers, eligibility and Advanced Commerce requests; make App Store API tokens.",
        discussion: """
            \(Credentials.helpText)

            \(ExitStatus.helpText)
            """,
        version: OfferKitVersion.current,
        subcommands: [
            SignCommand.self, TokenCommand.self, VerifyCommand.self, VerifyAppleCommand.self, KeyCommand.self,
            BatchCommand.self,
            CodesCommand.self, RetentionCommand.self, ServeCommand.self, APIKeyCommand.self, OpenAPICommand.self,
            VectorsCommand.self,
            SnippetCommand.self,
        ]
    )
}

/// The `offerkit` executable's entry point: `Sources/offerkit/main.swift` calls ``main()``.
public enum EntryPoint {
    /// Parses `CommandLine.arguments`, runs the command and exits with its documented status:
    /// ``start()``, then `dispatchMain()`.
    public static func main() -> Never {
        start()
        dispatchMain()
    }

    /// Starts the command of `CommandLine.arguments` in a task of its own and returns at once; the task
    /// exits the process with the command's documented status when it ends.
    ///
    /// ``main()`` gives the main thread to Dispatch after this (`dispatchMain()` ends that thread with
    /// `pthread_exit`). A host whose main thread must not end that way (code that runs before `main`,
    /// whose callers cannot be unwound) calls this and keeps its thread waiting instead.
    public static func start() {
        LedgerOfferCheck.installLedger()
        if CommandLine.arguments.dropFirst().first == "serve" {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        Task {
            await CommandLineRun.run(OfferKitCommand.self, exitStatus: ExitStatus.ofKnown)
            exit(0)
        }
    }
}
