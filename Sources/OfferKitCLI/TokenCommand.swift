import ArgumentParser
import Foundation
import OfferKitSigningCLI
import OfferSigning

struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make an App Store API bearer token.",
        subcommands: [TokenServerAPI.self, TokenConnectAPI.self]
    )

    /// The JSON printed by `--format json`.
    struct JSONOutput: Encodable {
        var token: String
        var issuedAt: Int64
        var expiresAt: Int64

        init(_ token: BearerToken) {
            self.token = token.token
            issuedAt = token.issuedAtSeconds
            expiresAt = token.expiresAtSeconds
        }
    }

    static func print(_ token: BearerToken, as format: OutputFormat) throws {
        switch format {
        case .text: Output.line(token.token)
        case .json: try Output.json(JSONOutput(token))
        }
    }
}
