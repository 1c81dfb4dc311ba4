import ArgumentParser
import OfferCodes
import OfferConnect
import OfferConnectAPI
import OfferJSON
import OfferKitSigningCLI

/// What every `codes lookup` subcommand takes: the App Store Connect options of `codes apply` and
/// `--format`.
struct LookupOptions: ParsableArguments {
    @OptionGroup var connect: ConnectOptions

    @Option(help: "text (one line per resource, tab-separated, the id first) or json (one object).")
    var format: OutputFormat = .text

    /// Runs `body` with a lister of the API key, then closes its connections however `body` ends.
    func withLister<Value>(_ body: (ConnectLister) async throws -> Value) async throws -> Value {
        try await Self.withLister(connect, body)
    }

    /// Runs `body` with a lister of `connect`'s API key, then closes its connections however
    /// `body` ends; App Store Connect's failures are stated as a look-up's (``lookupError(_:)``).
    static func withLister<Value>(_ connect: ConnectOptions, _ body: (ConnectLister) async throws -> Value)
        async throws -> Value
    {
        let verbose = connect.verbose
        let lister = ConnectLister(
            address: try connect.address(), signer: try connect.signer(), tokenLifetime: connect.tokenLifetime,
            settings: try connect.settings()
        ) { exchange in
            if verbose { Output.note(exchange.line) }
        }
        do {
            let value = try await body(lister)
            await lister.shutdown()
            return value
        } catch let error as ConnectError {
            await lister.shutdown()
            throw Self.lookupError(error)
        } catch {
            await lister.shutdown()
            throw error
        }
    }

    /// `codes apply`'s errors as a look-up states them: a look-up records nothing and changes nothing,
    /// so running it again is all there is to do (exit 5; a refused key stays exit 3).
    static func lookupError(_ error: ConnectError) -> any Error {
        let again = "A look-up changes nothing: run it again"
        switch error {
        case .unreachable(let reason):
            return CLIError.io(path: "App Store Connect", reason: "could not be reached: \(reason). \(again).")
        case .unexpectedAnswer(let request, let what):
            return CLIError.io(
                path: "App Store Connect",
                reason: "answered \(request) with \(what); expected a list as documented for API 4.4.1. \(again).")
        case .hourlyLimitSpent(let limit):
            return CLIError.io(
                path: "App Store Connect",
                reason: "the API key's hourly limit of \(limit) requests is spent (X-Rate-Limit: none left). \(again) "
                    + "in about an hour (the limit is a rolling hour), or with another key.")
        default: return error
        }
    }

    /// The list at `path`; a `404` is the input's fault: `missing` names the flag and what it should name.
    static func list(
        _ lister: ConnectLister, _ path: String, query: [(String, String)] = [], missing: @autoclosure () -> String
    ) async throws -> ConnectLister.Listing {
        do {
            return try await lister.list(path, query: query)
        } catch let error as ConnectLister.NotFound {
            throw CLIError.invalidInput("\(missing()) (App Store Connect answered GET \(error.path): \(error.detail))")
        }
    }

    /// An App Store Connect id given as `flag` (`ConnectResource.idRule`: it becomes a path segment).
    static func checkedId(_ value: String, flag: String) throws -> String {
        guard ConnectResource.isValidId(value) else {
            throw CLIError.usage(
                "\(flag) must be an App Store Connect id (\(ConnectResource.idRule)), such as 6450000001")
        }
        return value
    }

    /// The path segment of an id (percent-encoded).
    static func segment(_ id: String) -> String { ConnectLister.percentEncode(id) }

    /// `text` as a string attribute of `item`, if it has one.
    static func text(_ item: ConnectListPage.Item, _ name: String) -> String? {
        if case .string(let value)? = item.attributes[name] { return value }
        return nil
    }

    /// Prints one line per row, fields tab-separated (an absent field is `-`).
    static func printRows(_ rows: [[String?]]) {
        for row in rows { Output.line(row.map { $0 ?? "-" }.joined(separator: "\t")) }
    }
}
