import Foundation
import InteropSupport
import Testing

/// A compact JWS taken apart with Foundation (not the library's codecs).
struct DecodedJWS {
    let compact: String
    let segments: [String]
    let headerText: String
    let payloadText: String
    let header: JSON
    let claims: JSON

    init?(_ compact: String) {
        let compact = compact.trimmingCharacters(in: .whitespacesAndNewlines)
        let segments = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 3,
            let headerBytes = Base64URL.decode(segments[0]), let payloadBytes = Base64URL.decode(segments[1])
        else { return nil }
        self.compact = compact
        self.segments = segments
        self.headerText = String(decoding: headerBytes, as: UTF8.self)
        self.payloadText = String(decoding: payloadBytes, as: UTF8.self)
        guard let header = JSON.parse(headerText), let claims = JSON.parse(payloadText) else { return nil }
        self.header = header
        self.claims = claims
    }

    /// This JWS with its payload replaced (the signature kept), which must no longer verify.
    func withPayload(_ payload: String) -> String {
        segments[0] + "." + Base64URL.encode(Data(payload.utf8)) + "." + segments[2]
    }
}

enum Base64URL {
    static func decode(_ text: some StringProtocol) -> Data? {
        guard !text.contains("="), !text.contains("+"), !text.contains("/") else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// The independent verifiers: Python's `cryptography` and `PyJWT`, and the `openssl` CLI.
///
/// Missing on a developer machine: the tests that need them are skipped with a loud reason.
/// With `CI` set they run anyway and fail, so CI can never pass without them.
enum Independent {
    static var isCI: Bool { InteropEnvironment.isCI }

    /// `OFFERKIT_PYTHON` (the venv `.ci/run` makes) or `python3` from PATH.
    static var python: String { InteropEnvironment.python }

    static var pythonAvailable: Bool {
        get async { await ExternalProcess.succeeds(python, ["-c", "import cryptography, jwt"]) }
    }
    static var opensslAvailable: Bool {
        get async { await ExternalProcess.succeeds("openssl", ["version"]) }
    }

    static let pythonReason = Comment(
        rawValue: "SKIPPED LOUDLY: \(python) cannot import cryptography and jwt, so the CLI's JWS are not "
            + "independently verified here (run .ci/run, or pip install cryptography PyJWT and set "
            + "OFFERKIT_PYTHON; CI never skips this)")
    static let opensslReason = Comment(
        rawValue: "SKIPPED LOUDLY: the openssl CLI is not on PATH, so the CLI's legacy signatures are not "
            + "independently verified here (apt-get install openssl; CI never skips this)")

    typealias Result = ExternalProcess.Result

    /// Runs a tool through `/usr/bin/env` (output through files, so nothing can block).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) async throws -> Result {
        try await ExternalProcess.run(executable, arguments, stdin: stdin)
    }

    /// `Tests/Interop/verify_jws.py`: verifies with PyJWT (ES256 only, audience checked) and again
    /// with `cryptography` over the raw `r || s` signature; reads [{"token","aud","pem"}] on stdin,
    /// prints [{"header","claims"}].
    static let verifyJWSScript = CLI.packageRoot.appendingPathComponent("Tests/Interop/verify_jws.py").path

    struct VerifiedByPython {
        let header: JSON
        let claims: JSON
    }

    /// Verifies every `(token, audience)` with PyJWT and `cryptography` against `publicKeyPath`.
    static func verifyWithPython(
        _ tokens: [(token: String, audience: String)], publicKeyPath: String = DemoKey.publicKeyPath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [VerifiedByPython] {
        let items: [[String: String]] = tokens.map {
            [
                "token": $0.token.trimmingCharacters(in: .whitespacesAndNewlines), "aud": $0.audience,
                "pem": publicKeyPath,
            ]
        }
        let input = try JSONSerialization.data(withJSONObject: items)
        let result = try await run(python, [verifyJWSScript], stdin: input)
        #expect(
            result.status == 0, "PyJWT/cryptography rejected the CLI's output:\n\(result.stderr)",
            sourceLocation: sourceLocation)
        guard result.status == 0, let list = JSON.parse(result.stdout)?.array else { return [] }
        return list.map { VerifiedByPython(header: $0["header"] ?? .null, claims: $0["claims"] ?? .null) }
    }

    /// The legacy message (docs/formats.md §2): seven fields joined by U+2063.
    static func legacyMessage(
        bundleId: String = DemoKey.bundleId, keyId: String = DemoKey.keyId, productId: String, offerId: String,
        appAccountToken: String, nonce: String, timestamp: Int64
    ) -> Data {
        let fields = [
            bundleId, keyId, productId, offerId, appAccountToken.lowercased(), nonce.lowercased(), String(timestamp),
        ]
        return Data(fields.joined(separator: "\u{2063}").utf8)
    }

    /// `openssl dgst -sha256 -verify` of a base64 DER signature over `message`.
    static func opensslVerify(
        signatureBase64: String, message: Data, publicKeyPath: String = DemoKey.publicKeyPath
    ) async throws -> Result {
        let folder = try TempDir.make()
        defer { folder.remove() }
        guard let der = Data(base64Encoded: signatureBase64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return Result(status: -1, stdout: "", stderr: "the signature is not standard base64: \(signatureBase64)")
        }
        let signaturePath = folder.file("sig.der")
        let messagePath = folder.file("message.bin")
        try der.write(to: URL(fileURLWithPath: signaturePath))
        try message.write(to: URL(fileURLWithPath: messagePath))
        return try await run(
            "openssl", ["dgst", "-sha256", "-verify", publicKeyPath, "-signature", signaturePath, messagePath])
    }
}
