import ArgumentParser
import Foundation
import OfferJSON
import OfferKitSigningCLI
import OfferService
import OfferSigning

struct APIKeyCreate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an API key for `offerkit serve`: a secret shown once and its configuration entry.",
        discussion: """
            Prints the secret (first line; give it to the caller, who sends `Authorization: Bearer <secret>`) and \
            the entry to add to the service configuration's "apiKeys" array or to OFFERKIT_API_KEYS (a JSON array \
            of entries). The entry holds only the secret's SHA-256, so it may be stored and shared; the secret \
            itself is never stored and cannot be shown again.

            Scopes: \(APIKeyCreate.scopeNames.joined(separator: ", ")); "*" (the default) means all.
            """)

    @Option(help: "A name for logs and metrics, such as billing-backend (1-64 characters, unique per service).")
    var name: String

    @Option(
        name: .customLong("scope"),
        help: "An operation scope the key may call (repeat for several). Default: * (all).")
    var scopes: [String] = []

    @Option(
        name: .customLong("bundle-id"),
        help: "A bundle ID the key may sign for (repeat for several). Default: * (all configured apps).")
    var bundleIds: [String] = []

    @OptionGroup var output: OutputOptions

    static var scopeNames: [String] { OperationScope.allCases.map(\.rawValue) }

    func validate() throws {
        let length = name.unicodeScalars.count
        guard (1...64).contains(length), StringRules.Format.plainText.matches(name) else {
            throw CLIError.usage(
                "--name: expected 1-64 characters without control characters (found \(length) characters)")
        }
        for scope in scopes where scope != "*" && OperationScope.named(scope) == nil {
            throw CLIError.usage(
                "--scope \(scope): not a scope; expected \"*\" or one of \(Self.scopeNames.joined(separator: ", "))")
        }
        if scopes.contains("*"), scopes.contains(where: { $0 != "*" }) {
            throw CLIError.usage("--scope: \"*\" means every scope; give it alone or list scopes without it")
        }
        for bundleId in bundleIds where bundleId != "*" && !StringRules.Format.bundleId.matches(bundleId) {
            throw CLIError.usage("--bundle-id \(bundleId): expected \(StringRules.Format.bundleId.expected) or \"*\"")
        }
        if bundleIds.contains("*"), bundleIds.contains(where: { $0 != "*" }) {
            throw CLIError.usage("--bundle-id: \"*\" means every app; give it alone or list bundle IDs without it")
        }
        if scopes.contains(where: { OperationScope.named($0)?.scope == .connectAPIToken }),
            bundleIds.contains(where: { $0 != "*" })
        {
            throw CLIError.usage(
                "--scope connect-api-token with --bundle-id: an App Store Connect API token acts for the whole team, "
                    + "so only a key for every app may create one; leave out --bundle-id or this scope")
        }
    }

    func run() throws {
        // No option, or "*", means all.
        let scopeSet: Set<OperationScope>? =
            scopes.allSatisfy { $0 == "*" } ? nil : Set(scopes.compactMap { OperationScope.named($0)?.scope })
        for scope in scopes where OperationScope.named(scope)?.deprecated == true {
            if let note = SigningOperation.deprecationNote(for: scope) { Deprecation.note(note) }
        }
        let bundleSet: Set<String>? = bundleIds.allSatisfy { $0 == "*" } ? nil : Set(bundleIds)
        let (secret, key) = APIKey.generate(name: name, scopes: scopeSet, bundleIds: bundleSet)
        let entry = Self.entry(for: key)
        switch output.format {
        case .text:
            Output.line(secret)
            Output.line(entry.text())
            CommandContext.current.error.write(
                Data(
                    """
                    offerkit: the first line is the secret: it is shown only now. Give it to the caller \
                    (Authorization: Bearer <secret>).
                    offerkit: the second line is the entry for the service configuration's "apiKeys" (or \
                    OFFERKIT_API_KEYS='[<entry>]'); it holds only the secret's SHA-256.

                    """.utf8))
        case .json:
            Output.line(JSONValue.object([("secret", .string(secret)), ("entry", entry)]).text())
        }
    }

    /// The configuration entry `{name, sha256, scopes, bundleIds}` for `key`.
    static func entry(for key: APIKey) -> JSONValue {
        let scopes = key.scopes.map { set in OperationScope.allCases.filter(set.contains).map(\.rawValue) } ?? ["*"]
        let bundleIds = key.bundleIds.map { $0.sorted() } ?? ["*"]
        return .object([
            ("name", .string(key.name)), ("sha256", .string(key.digestHex)),
            ("scopes", .array(scopes.map(JSONValue.string))), ("bundleIds", .array(bundleIds.map(JSONValue.string))),
        ])
    }
}
