import ArgumentParser
import Foundation
import OfferSigning

/// `--nonce` and `--iat`, for reproducible JWS (tests, vectors). Leave them out in production.
struct RequestOverrides: ParsableArguments {
    @Option(help: "A fixed nonce (UUID v4). Default: a fresh random one.")
    var nonce: String?

    @Option(
        parsing: .unconditional,
        help:
            "A fixed issued-at time in UNIX seconds (\(ClaimTime.earliestSeconds) to \(ClaimTime.latestSeconds)). Default: now."
    )
    var iat: Int64?

    func parsedNonce() throws -> UUID? {
        try nonce.map(Self.uuid)
    }

    /// `--iat` as a date, range-checked while it is still the exact integer that was given.
    func issuedAt() throws -> Date? {
        guard let iat else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(try ClaimTime.checkSeconds(iat, field: "iat")))
    }

    static func uuid(_ text: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else {
            throw CLIError.invalidInput(
                "--nonce \(text.count > 40 ? "(\(text.count) characters, not shown)" : text) is invalid: "
                    + "expected a UUID such as 3f2c6a8e-6a1b-4c5d-9e7f-0a1b2c3d4e5f")
        }
        return uuid
    }
}

/// The JSON printed by `--format json` for a StoreKit JWS.
struct SignedJWSOutput: Encodable {
    /// Prints the bare JWS, or the JSON object with the fields `details` fills in.
    static func print(
        _ signed: CompactJWS, keyID: String, format: OutputFormat, details: (inout SignedJWSOutput) -> Void = { _ in }
    ) throws {
        switch format {
        case .text:
            Output.line(signed.serialization)
        case .json:
            var output = SignedJWSOutput(
                jws: signed.serialization, keyId: keyID, nonce: signed.nonceString,
                iat: signed.issuedAtSeconds)
            details(&output)
            try Output.json(output)
        }
    }

    var jws: String
    var keyId: String
    var nonce: String?
    var iat: Int64
    var productId: String?
    var offerIdentifier: String?
    var transactionId: String?
    var allowIntroductoryOffer: Bool?
    var operation: String?
}
