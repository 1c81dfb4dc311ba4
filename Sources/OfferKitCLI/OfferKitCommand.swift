import ArgumentParser
import Foundation
import NIOCore
import NIOPosix
import OfferSigning

/// `offerkit`: signatures, tokens and verification for App Store In-App Purchases.
struct OfferKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offerkit",
        abstract: "Sign promotional offers, eligibility and Advanced Commerce requests; make App Store API tokens.",
        discussion: """
            Credentials: --key-file, --key-env, --key-id, --issuer-id, --bundle-id, --config; or OFFERKIT_KEY_FILE, \
            OFFERKIT_KEY, OFFERKIT_KEY_ID, OFFERKIT_ISSUER_ID, OFFERKIT_BUNDLE_ID, OFFERKIT_CONFIG. Flags beat the \
            environment, which beats the config file. The demo key is used, with a warning, only when none of \
            these is given and the current folder contains keys-example/config.json (a checkout of OfferKit).

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
        if CommandLine.arguments.dropFirst().first == "serve" {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        Task {
            await run()
            exit(0)
        }
    }

    static func run() async {
        do {
            try checkArgumentsAreUTF8()
            var command = try await OfferKitCommand.asyncParseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            fail(error)
        }
    }

    /// Refuses an argument that is not valid UTF-8. Swift would replace the bad bytes with U+FFFD
    /// and OfferKit would sign the replacement; JSON input is refused the same way. The argument
    /// is not echoed: it may be anything.
    static func checkArgumentsAreUTF8() throws {
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
    static func fail(_ error: any Error) -> Never {
        if let known = ExitStatus.ofKnown(error) {
            printError(error.localizedDescription)
            exit(known.rawValue)
        }
        if let code = error as? ExitCode { exit(code.rawValue) }
        if OfferKitCommand.exitCode(for: error) == .success { OfferKitCommand.exit(withError: error) }
        printError(OfferKitCommand.fullMessage(for: error).replacingOccurrences(of: "Error: ", with: ""))
        exit(ExitStatus.usage.rawValue)
    }

    /// Every line on stderr starts with `offerkit: `, with key material redacted.
    static func printError(_ message: String) {
        let lines = Redaction.redactKeyMaterial(in: message).split(separator: "\n", omittingEmptySubsequences: true)
        let text = lines.map { "offerkit: \($0)\n" }.joined()
        FileHandle.standardError.write(Data(text.utf8))
    }
}
