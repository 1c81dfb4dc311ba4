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
        CommandContext.keepProcessTextWidthInRange()
        if CommandLine.arguments.dropFirst().first == "serve" {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        Task {
            var context = CommandContext.process
            context.ledgerOfferCheck = LedgerOfferCheck.ledger
            await CommandContext.$current.withValue(context) {
                await CommandLineRun.run(OfferKitCommand.self, exitStatus: ExitStatus.ofKnown)
            }
            exit(0)
        }
    }

    /// Runs the command of `arguments` (without the program's name) in this process, with `context`'s
    /// streams and environment, and returns its exit status: what `offerkit` would have exited with.
    ///
    /// Every command but `serve` runs this way: `serve` takes the process's signals, logs and limits
    /// over, and is refused here (exit 2); start it as a process. The working directory is the process's.
    public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        var context = context
        context.ledgerOfferCheck = LedgerOfferCheck.ledger
        return await CommandContext.$current.withValue(context) {
            if arguments.first == "serve" {
                return CommandLineRun.report(
                    CLIError.usage("serve runs as a process of its own (offerkit serve), not in another program"),
                    root: OfferKitCommand.self, exitStatus: ExitStatus.ofKnown)
            }
            return await CommandLineRun.status(
                OfferKitCommand.self, arguments: arguments, exitStatus: ExitStatus.ofKnown)
        }
    }
}
