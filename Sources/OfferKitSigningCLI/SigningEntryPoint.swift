import Foundation

/// The entry point of `offerkit` built with its `sign` commands only (``OfferKitSigningCommand``):
/// `Sources/offerkit/main.swift` calls ``main()`` when the package trait `AllCommands` is off.
public enum SigningEntryPoint {
    /// Parses `CommandLine.arguments`, runs the command and exits with its documented status:
    /// ``start()``, then `dispatchMain()`.
    public static func main() -> Never {
        start()
        dispatchMain()
    }

    /// Starts the command of `CommandLine.arguments` in a task of its own and returns at once; the task
    /// exits the process with the command's documented status when it ends (see the full tree's
    /// `EntryPoint.start()`, which this mirrors).
    public static func start() {
        CommandContext.keepProcessTextWidthInRange()
        Task {
            await run(Array(CommandLine.arguments.dropFirst()))
            exit(0)
        }
    }

    static func run(_ arguments: [String]) async {
        do {
            try CommandLineRun.checkArgumentsAreUTF8()
        } catch {
            CommandLineRun.fail(error, root: OfferKitSigningCommand.self, exitStatus: ExitStatus.ofSigning)
        }
        let status = await run(arguments, context: .process)
        if status != 0 { exit(status) }
    }

    /// Runs the command of `arguments` (without the program's name) in this process, with `context`'s
    /// streams and environment, and returns its exit status: what the process would have exited with.
    public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        var context = context
        context.ledgerOfferCheck = nil  // this tree has no ledger, whatever context it is given
        return await CommandContext.$current.withValue(context) {
            do {
                try OfferKitSigningCommand.checkCommand(arguments)
            } catch {
                return CommandLineRun.report(error, root: OfferKitSigningCommand.self, exitStatus: ExitStatus.ofSigning)
            }
            return await CommandLineRun.status(
                OfferKitSigningCommand.self, arguments: arguments, exitStatus: ExitStatus.ofSigning)
        }
    }
}
