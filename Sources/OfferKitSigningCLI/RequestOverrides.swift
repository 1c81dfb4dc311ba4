import ArgumentParser
import Foundation
import OfferSigning

/// `--nonce` and `--issued-at` (the deprecated `--iat` still accepted, hidden), for reproducible
/// JWS (tests, vectors). Leave them out in production.
package struct RequestOverrides: ParsableArguments {
    package init() {}

    @Option(help: "A fixed nonce (UUID v4). Default: a fresh random one.")
    package var nonce: String?

    @Option(
        name: .customLong("issued-at"),
        parsing: .unconditional,
        help:
            "A fixed issued-at time in UNIX seconds (\(ClaimTime.earliestSeconds) to \(ClaimTime.latestSeconds)). Default: now."
    )
    package var issuedAtSeconds: Int64?

    @Option(name: .customLong("iat"), parsing: .unconditional, help: .hidden)
    package var iat: Int64?

    package func validate() throws {
        if issuedAtSeconds != nil, iat != nil {
            throw ValidationError("--issued-at and --iat are the same flag: give only --issued-at")
        }
    }

    package func parsedNonce() throws -> UUID? {
        try nonce.map(Self.uuid)
    }

    /// `--issued-at` (or `--iat`, with a note) as a date, range-checked while it is still the exact
    /// integer that was given. Errors name the flag as given.
    package func issuedAt() throws -> Date? {
        guard let seconds = try Deprecation.value(issuedAtSeconds, "--issued-at", deprecated: iat, "--iat") else {
            return nil
        }
        let field = issuedAtSeconds != nil ? "--issued-at" : "--iat"
        return Date(timeIntervalSince1970: TimeInterval(try ClaimTime.checkSeconds(seconds, field: field)))
    }

    package static func uuid(_ text: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else {
            throw CLIError.invalidInput(
                "--nonce \(text.count > 40 ? "(\(text.count) characters, not shown)" : text) is invalid: "
                    + "expected a UUID such as 3f2c6a8e-6a1b-4c5d-9e7f-0a1b2c3d4e5f")
        }
        return uuid
    }
}

/// The JSON printed by `--format json` for a StoreKit JWS.
package struct SignedJWSOutput: Encodable {
    /// Prints the bare JWS, or the JSON object with the fields `details` fills in.
    package static func print(
        _ signed: CompactJWS, keyId: String, format: OutputFormat, details: (inout SignedJWSOutput) -> Void = { _ in }
    ) throws {
        switch format {
        case .text:
            Output.line(signed.serialization)
        case .json:
            var output = SignedJWSOutput(
                jws: signed.serialization, keyId: keyId, nonce: signed.nonceString,
                issuedAt: signed.issuedAtSeconds)
            details(&output)
            try Output.json(output)
        }
    }

    var jws: String
    var keyId: String
    var nonce: String?
    var issuedAt: Int64
    var productId: String?
    var offerIdentifier: String?
    var transactionId: String?
    var allowIntroductoryOffer: Bool?
    var operation: String?
}
