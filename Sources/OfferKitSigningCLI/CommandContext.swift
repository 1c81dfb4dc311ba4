import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a command of `offerkit` reads and writes besides its arguments and files: standard input,
/// standard output, standard error and the environment.
///
/// A process runs its command with its own (``process``). A host that runs commands in its own
/// process (`EntryPoint.run(_:context:)`, the tests) gives each run a context of its own, a
/// task-local value: the command, its child tasks and the callbacks it hands to clients (which
/// take the context along) write to that context's descriptors and read that context's environment.
/// What is the process's stays so: the working directory, `TMPDIR` for temporary files, and
/// `serve`, which takes the process's signals and logs over and runs only as a process.
public struct CommandContext: Sendable {
    /// The file descriptor commands read stdin from (`--key-file -`, `batch --input -`).
    public var standardInput: Int32
    /// The file descriptor of stdout.
    public var standardOutput: Int32
    /// The file descriptor of stderr.
    public var standardError: Int32
    /// The environment variables the command sees (`OFFERKIT_*`, `PGPASSWORD`, `COLUMNS`, …).
    public var environment: [String: String]
    /// The arguments of the command running (without the program's name), as they were given: set
    /// when it starts, for what ArgumentParser does not say (which spelling of a subcommand was typed).
    package var arguments: [String] = []
    /// How `sign … --ledger` checks an offer identifier against the ledger (``LedgerOfferCheck``): set by
    /// the full `offerkit`, which links the ledger; none in the sign-only build.
    package var ledgerOfferCheck: LedgerOfferCheck.Check?

    /// A context over the given descriptors, which stay open and are never closed by a command.
    public init(standardInput: Int32, standardOutput: Int32, standardError: Int32, environment: [String: String]) {
        self.standardInput = standardInput
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.environment = environment
    }

    /// The process's own descriptors 0, 1 and 2 and its environment.
    public static var process: CommandContext {
        CommandContext(
            standardInput: STDIN_FILENO, standardOutput: STDOUT_FILENO, standardError: STDERR_FILENO,
            environment: ProcessInfo.processInfo.environment)
    }

    /// The context of the command running in this task: ``process`` unless a host bound another.
    @TaskLocal public static var current: CommandContext = .process

    /// The width help and usage messages wrap at: `COLUMNS` when it is a number, else stdout's terminal's
    /// width, else 80, as ArgumentParser chooses, but kept within ``textWidths``.
    var textWidth: Int { min(max(chosenWidth, Self.textWidths.lowerBound), Self.textWidths.upperBound) }

    /// The width ArgumentParser itself would choose.
    private var chosenWidth: Int { environment["COLUMNS"].flatMap { Int($0) } ?? terminalWidth ?? 80 }

    /// Sets this process's `COLUMNS` to ``textWidth`` when the width ArgumentParser would choose is out of
    /// ``textWidths``: it also renders help where OfferKit cannot give it a width (`exitCode(for:)`).
    /// Called once as a process starts, before anything else runs.
    package static func keepProcessTextWidthInRange() {
        let process = CommandContext.process
        if process.chosenWidth != process.textWidth { setenv("COLUMNS", String(process.textWidth), 1) }
    }

    /// 40 to 10,000 columns: ArgumentParser traps (SIGILL) wrapping a help text to fewer than about 30
    /// (`COLUMNS=0`, a narrow terminal pane), and no reader needs more.
    static let textWidths = 40...10_000

    /// The width of the terminal stdout is, if it is one.
    private var terminalWidth: Int? {
        var size = winsize()
        guard ioctl(standardOutput, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// A handle on stdout (left open).
    package var output: FileHandle { FileHandle(fileDescriptor: standardOutput, closeOnDealloc: false) }

    /// A handle on stderr (left open).
    package var error: FileHandle { FileHandle(fileDescriptor: standardError, closeOnDealloc: false) }

    /// Writes `text` to stderr.
    package func writeError(_ text: String) {
        error.write(Data(text.utf8))
    }

    /// Writes `text` to stdout.
    package func writeOutput(_ text: String) {
        output.write(Data(text.utf8))
    }

    /// Whether stderr is a terminal (where progress lines go).
    package var errorIsTerminal: Bool { isatty(standardError) == 1 }
}
