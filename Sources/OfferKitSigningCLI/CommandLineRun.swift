import ArgumentParser
import Foundation

/// What both command trees of `offerkit` do around a command: refuse arguments that are not UTF-8,
/// parse, run, and exit with the documented status, every line on stderr prefixed `offerkit: ` and
/// with key material redacted. The full tree (OfferKitCLI's `EntryPoint`) and the tree of the `sign`
/// commands alone (``SigningEntryPoint``) differ only in their root command and in the errors they
/// know.
package enum CommandLineRun {
    /// Parses `arguments` (`CommandLine.arguments` without the program's name) as `root`'s, runs the
    /// command, and exits the process with its status when it fails.
    /// - Parameter exitStatus: the documented status of an error; `nil` for ArgumentParser's own.
    package static func run<Root: AsyncParsableCommand>(
        _ root: Root.Type, arguments: [String]? = nil, exitStatus: (any Error) -> ExitStatus?
    ) async {
        do {
            try checkArgumentsAreUTF8()
        } catch {
            fail(error, root: root, exitStatus: exitStatus)
        }
        let status = await status(
            root, arguments: arguments ?? Array(CommandLine.arguments.dropFirst()), exitStatus: exitStatus)
        if status != 0 { exit(status) }
    }

    /// Parses `arguments` as `root`'s and runs the command with ``CommandContext/current``: its exit
    /// status, with every message written as ``run(_:arguments:exitStatus:)`` writes it. The process
    /// goes on whatever the command does.
    package static func status<Root: AsyncParsableCommand>(
        _ root: Root.Type, arguments: [String], exitStatus: (any Error) -> ExitStatus?
    ) async -> Int32 {
        var context = CommandContext.current
        context.arguments = arguments
        return await CommandContext.$current.withValue(context) {
            do {
                var command = try await root.asyncParseAsRoot(arguments)
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
                return 0
            } catch {
                return report(error, root: root, exitStatus: exitStatus)
            }
        }
    }

    /// Refuses an argument that is not valid UTF-8. Swift would replace the bad bytes with U+FFFD
    /// and OfferKit would sign the replacement; JSON input is refused the same way. The argument
    /// is not echoed: it may be anything.
    package static func checkArgumentsAreUTF8() throws {
        let arguments = CommandLine.unsafeArgv
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = arguments[index], String(validatingCString: pointer) == nil else { continue }
            // Name the flag: the one before (`--product-id VALUE`) or this one's own (`--product-id=VALUE`).
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            let ownFlag =
                bytes.starts(with: Array("--".utf8))
                ? bytes.firstIndex(of: UInt8(ascii: "=")).flatMap {
                    String(validating: bytes[..<$0], as: UTF8.self)
                } : nil
            let previous = index > 1 ? arguments[index - 1].flatMap { String(validatingCString: $0) } : nil
            let flag = ownFlag ?? previous.flatMap { $0.hasPrefix("-") ? $0 : nil }
            let place = flag.map { " (the value of \($0))" } ?? ""
            throw CLIError.usage(
                "argument \(index)\(place) is not valid UTF-8; give text in UTF-8 (OfferKit signs text exactly as "
                    + "given and does not guess an encoding)")
        }
    }

    /// Our errors exit with their documented codes; ArgumentParser's own (help, version, parse and
    /// validation errors) print its message, and exit 0 for help or 2 for usage errors.
    package static func fail<Root: ParsableCommand>(
        _ error: any Error, root: Root.Type, exitStatus: (any Error) -> ExitStatus?
    ) -> Never {
        exit(report(error, root: root, exitStatus: exitStatus))
    }

    /// Writes what `error` says to ``CommandContext/current`` (help and version to stdout, anything
    /// else to stderr) and returns its exit status (see ``fail(_:root:exitStatus:)``).
    package static func report<Root: ParsableCommand>(
        _ error: any Error, root: Root.Type, exitStatus: (any Error) -> ExitStatus?
    ) -> Int32 {
        if let known = exitStatus(error) {
            printError(error.localizedDescription)
            return known.rawValue
        }
        if let code = error as? ExitCode { return code.rawValue }
        let context = CommandContext.current
        let status = root.exitCode(for: error)
        let text = root.fullMessage(for: error, columns: context.textWidth)
        if status == .success {
            if !text.isEmpty { context.writeOutput(text + "\n") }
            return status.rawValue
        }
        printError(text.replacingOccurrences(of: "Error: ", with: ""))
        return ExitStatus.usage.rawValue
    }

    /// Every line on stderr starts with `offerkit: `, with key material redacted.
    package static func printError(_ message: String) {
        let lines = Redaction.redactKeyMaterial(in: message).split(separator: "\n", omittingEmptySubsequences: true)
        let text = lines.map { "offerkit: \($0)\n" }.joined()
        CommandContext.current.writeError(text)
    }
}
