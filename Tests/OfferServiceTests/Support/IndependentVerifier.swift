import Foundation
import InteropSupport
import OfferJSON
import OfferSigning
import Testing

/// The independent verifiers for the service's signatures: `Tests/Interop/verify_jws.py` (PyJWT and
/// `cryptography`) for compact JWS, the `openssl` CLI for legacy signatures. No library code takes
/// part in a verification.
///
/// Missing on a developer machine: the tests that need them are skipped with a loud reason. With
/// `CI` set they run anyway and fail, so CI can never pass without them.
enum IndependentVerifier {
    static var isCI: Bool { InteropEnvironment.isCI }

    /// `OFFERKIT_PYTHON` (the venv `.ci/run` makes) or `python3` from PATH.
    static var python: String { InteropEnvironment.python }

    static let script = ServiceFixtures.packageRoot.appendingPathComponent("Tests/Interop/verify_jws.py").path

    static var pythonAvailable: Bool {
        get async { await ExternalProcess.succeeds(python, ["-c", "import cryptography, jwt"]) }
    }
    static var opensslAvailable: Bool {
        get async { await ExternalProcess.succeeds("openssl", ["version"]) }
    }

    /// Whether the JWS tests run: the verifier is there, or CI demands it.
    static var pythonEnabled: Bool {
        get async { await pythonAvailable || isCI }
    }
    /// Whether the legacy signature tests run: openssl is there, or CI demands it.
    static var opensslEnabled: Bool {
        get async { await opensslAvailable || isCI }
    }

    static let pythonReason = Comment(
        rawValue: "SKIPPED LOUDLY: \(python) cannot import cryptography and jwt, so the service's JWS are not "
            + "independently verified here (run .ci/run, or pip install cryptography PyJWT and set "
            + "OFFERKIT_PYTHON; CI never skips this)")
    static let opensslReason = Comment(
        rawValue: "SKIPPED LOUDLY: the openssl CLI is not on PATH, so the service's legacy signatures are not "
            + "independently verified here (apt-get install openssl; CI never skips this)")

    /// A JWS as PyJWT decoded it after both verifications passed.
    struct VerifiedJWS {
        let header: JSONValue
        let claims: JSONValue

        /// Expects the header of a JWS the demo key signed: exactly `alg` ES256, `kid` and `typ` JWT.
        func expectDemoKeyHeader(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(header.keys.sorted() == ["alg", "kid", "typ"], sourceLocation: sourceLocation)
            #expect(header["alg"] == .string("ES256"), sourceLocation: sourceLocation)
            #expect(header["kid"] == .string(ServiceFixtures.keyId), sourceLocation: sourceLocation)
            #expect(header["typ"] == .string("JWT"), sourceLocation: sourceLocation)
        }
    }

    /// Verifies every `(token, audience)` with PyJWT and `cryptography` against the demo public key.
    /// - Returns: one result per token, or none when the verifier refused any (recorded as an issue).
    static func verify(
        _ tokens: [(token: String, audience: String)], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [VerifiedJWS] {
        let items = JSONValue.array(
            tokens.map {
                .object([
                    ("token", .string($0.token)), ("aud", .string($0.audience)),
                    ("pem", .string(ServiceFixtures.publicKeyFile)),
                ])
            })
        let result = try await run(python, [script], stdin: Data(items.serialized()))
        #expect(
            result.status == 0, "PyJWT/cryptography rejected the service's JWS:\n\(result.stderr)",
            sourceLocation: sourceLocation)
        guard result.status == 0, case .array(let list) = try JSONValue.parse(Array(result.stdout.utf8)) else {
            return []
        }
        return list.map { VerifiedJWS(header: $0["header"] ?? .null, claims: $0["claims"] ?? .null) }
    }

    /// `openssl dgst -sha256 -verify` of a base64 DER signature over `message` with the demo public key.
    static func opensslVerify(signatureBase64: String, message: [UInt8]) async throws -> Result {
        let folder = try TemporaryFolder()
        guard let der = Data(base64Encoded: signatureBase64) else {
            return Result(status: -1, stdout: "", stderr: "the signature is not standard base64: \(signatureBase64)")
        }
        let signature = folder.url.appendingPathComponent("signature.der")
        let messageFile = folder.url.appendingPathComponent("message.bin")
        try der.write(to: signature)
        try Data(message).write(to: messageFile)
        let result = try await run(
            "openssl",
            [
                "dgst", "-sha256", "-verify", ServiceFixtures.publicKeyFile, "-signature", signature.path,
                messageFile.path,
            ])
        withExtendedLifetime(folder) {}
        return result
    }

    typealias Result = ExternalProcess.Result

    /// Runs a tool through `/usr/bin/env`, output through files so that nothing can block.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) async throws -> Result {
        try await ExternalProcess.run(executable, arguments, stdin: stdin)
    }
}
