import ArgumentParser
import Foundation
import OfferJSON
import OfferKitSigningCLI
import OfferService

/// `offerkit openapi`: the signing service's OpenAPI 3.1.0 description, as the service serves it.
struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print the signing service's OpenAPI 3.1.0 description (JSON or YAML).",
        discussion: """
            The document is generated from the service's operations and schemas, the same one `offerkit serve` \
            answers at GET /openapi.json. The repository's openapi.json is this command's output: \
            `offerkit openapi --out openapi.json --force` regenerates it.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable, EnumeratedValue {
        case json
        case yaml
    }

    @Option(help: "json (pretty, the default) or yaml (block style).")
    var format: Format = .json

    @Option(help: "Write the document to this file (whole or not at all) instead of stdout.")
    var out: String?

    @Flag(help: "Replace --out if it exists.")
    var force = false

    func validate() throws {
        if force, out == nil { throw ValidationError("--force only applies with --out") }
    }

    func run() throws {
        let text =
            switch format {
            case .json: OpenAPIDocument.jsonText(pretty: true)
            case .yaml: OpenAPIDocument.yamlText()
            }
        guard let out else {
            CommandContext.current.output.write(Data(text.utf8))
            return
        }
        // A public description, not a secret: readable by everyone, unlike signatures and codes.
        try AtomicFile.write(Data(text.utf8), to: out, permissions: 0o644, overwrite: force)
    }
}
