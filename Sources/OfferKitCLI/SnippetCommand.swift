import ArgumentParser
import Foundation
import OfferKitSigningCLI
import OfferSigning
import OfferSnippets

/// `offerkit snippet`: code that calls the signing service, or uses its answer in the app.
struct SnippetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snippet",
        abstract: "Print a code snippet that calls the signing service (or uses its answer in the app).",
        discussion: """
            Server snippets (curl, python, node, java, swift) call `offerkit serve` at --base-url with the API \
            key from $OFFERKIT_API_KEY, print the service's JSON answer, retry a 429 after its Retry-After (at \
            most 3 times, 10 s each), and fail with its problem (status, type, detail, field). App snippets \
            (swift-storekit, objc-storekit) buy with what your server passes on from the service; an app never \
            holds an API key. --list shows every language and operation. --templates DIR renders from a folder \
            laid out like templates/snippets (<language>/<operation>.mustache); files it lacks come from the \
            built-in templates.
            """)

    @Flag(help: "List the languages and the operations each has, then exit.")
    var list = false

    @Option(help: "The language: curl, python, node, java, swift, swift-storekit, objc-storekit.")
    var language: String?

    @Option(help: "The operation: \(SnippetOperation.names).")
    var operation: String?

    @Option(help: "The signing service's base URL.")
    var baseURL = SnippetInputs().baseURL

    @Option(help: "The app's bundle ID.")
    var bundleId = SnippetInputs().bundleId

    @Option(help: "The product ID (for Advanced Commerce: the SKU).")
    var productId = SnippetInputs().productId

    @Option(name: .customLong("offer-identifier"), help: "The promotional offer's identifier.")
    var offerIdentifier: String?

    /// The deprecated spelling of `--offer-identifier`: accepted, with a note on stderr.
    @Option(name: .customLong("offer-id"), help: .hidden)
    var deprecatedOfferId: String?

    @Option(
        help: """
            A transaction ID of the customer (introductory-offer eligibility; promotional offers). Without it, \
            promotional-offer snippets sign without one and introductory-offer eligibility snippets read it from \
            $\(SnippetInputs.transactionIdVariable).
            """)
    var transactionId: String?

    @Option(help: "An app account token (UUID) to sign into the legacy signature.")
    var appAccountToken: String?

    @Option(help: "The environment variable that server snippets read the API key from.")
    var apiKeyEnv = SnippetInputs().apiKeyVariable

    @Option(help: "A folder of your own templates (<language>/<operation>.mustache).")
    var templates: String?

    @Option(help: "Write the snippet to this file (whole or not at all) instead of stdout.")
    var out: String?

    @Flag(help: "Replace --out if it exists.")
    var force = false

    func validate() throws {
        if force, out == nil { throw ValidationError("--force only applies with --out") }
        if !list, language == nil || operation == nil {
            throw ValidationError("give --language and --operation, or --list")
        }
    }

    func run() throws {
        let source: SnippetTemplates = templates.map { .directory(URL(fileURLWithPath: $0)) } ?? .builtIn
        let text: String
        if list {
            text = Self.listing(try source.catalog())
        } else {
            let offer = try Deprecation.value(
                offerIdentifier, "--offer-identifier", deprecated: deprecatedOfferId, "--offer-id")
            var name = operation ?? ""
            if let note = SigningOperation.deprecationNote(for: name), let (current, _) = SigningOperation.named(name) {
                Deprecation.note(note)
                name = current.rawValue
            }
            let inputs = SnippetInputs(
                baseURL: baseURL, bundleId: bundleId, productId: productId,
                offerIdentifier: offer ?? SnippetInputs().offerIdentifier,
                transactionId: transactionId, appAccountToken: appAccountToken, apiKeyVariable: apiKeyEnv)
            text = try source.render(language: language ?? "", operation: name, inputs: inputs)
        }
        guard let out else {
            CommandContext.current.output.write(Data(text.utf8))
            return
        }
        try AtomicFile.write(Data(text.utf8), to: out, permissions: 0o644, overwrite: force)
    }

    /// One line per language: its name, where it runs, what it is, and its operations.
    static func listing(_ catalog: [SnippetTemplates.Entry]) -> String {
        let width = catalog.map(\.language.id.count).max() ?? 0
        return catalog.map { entry in
            let name = entry.language.id.padding(toLength: width, withPad: " ", startingAt: 0)
            let side = entry.language.side.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
            return "\(name)  \(side)  \(entry.language.title)\n"
                + String(repeating: " ", count: width + 10) + entry.operations.map(\.rawValue).joined(separator: " ")
                + "\n"
        }.joined()
    }
}
