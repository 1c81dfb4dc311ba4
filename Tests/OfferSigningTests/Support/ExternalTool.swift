import Foundation
import InteropSupport
import Testing

/// Runs the independent verifiers (the `openssl` CLI and Python's `cryptography`/`PyJWT`).
///
/// On a developer machine without them, interop tests are skipped with a loud reason; with
/// `CI` set they run anyway and fail, so CI can never pass without independent verification.
enum ExternalTool {
    typealias Result = ExternalProcess.Result

    static var isCI: Bool { InteropEnvironment.isCI }

    /// `OFFERKIT_PYTHON` (the venv `.ci/run` makes) or `python3` from PATH.
    static var python: String { InteropEnvironment.python }

    static var opensslAvailable: Bool {
        get async { await ExternalProcess.succeeds("openssl", ["version"]) }
    }

    static var pythonAvailable: Bool {
        get async { await ExternalProcess.succeeds(python, ["-c", "import cryptography, jwt"]) }
    }

    static let opensslReason = Comment(
        rawValue: "SKIPPED LOUDLY: the openssl CLI is not on PATH, so signatures are not independently verified here "
            + "(apt-get install openssl; CI never skips this)")
    static let pythonReason = Comment(
        rawValue: "SKIPPED LOUDLY: \(python) cannot import cryptography and jwt, so JWS are not independently verified "
            + "here (run .ci/run, or pip install cryptography PyJWT and set OFFERKIT_PYTHON; CI never skips this)")

    /// Runs a tool through `/usr/bin/env` (output through files, so nothing can block).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) async throws -> Result {
        try await ExternalProcess.run(executable, arguments, stdin: stdin)
    }

    /// `openssl dgst -sha256 -verify` of a DER ECDSA signature over `message`.
    static func opensslVerify(publicKey: URL, signatureDER: [UInt8], message: Data, in directory: URL) async throws
        -> Result
    {
        let name = UUID().uuidString
        let messageURL = directory.appendingPathComponent("\(name).msg")
        let signatureURL = directory.appendingPathComponent("\(name).der")
        try message.write(to: messageURL)
        try Data(signatureDER).write(to: signatureURL)
        return try await run(
            "openssl", ["dgst", "-sha256", "-verify", publicKey.path, "-signature", signatureURL.path, messageURL.path])
    }

    /// Runs `Tests/Interop/verify_vectors.py` on vector files.
    static func pythonVerifyVectors(_ paths: [String]) async throws -> Result {
        let script = Demo.packageRoot.appendingPathComponent("Tests/Interop/verify_vectors.py").path
        return try await run(python, [script] + paths)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// DER `ECDSA-Sig-Value` from a raw 64-byte `r || s`, for openssl.
    static func derSignature(raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop(while: { $0 == 0 }))
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    static func base64URLDecode(_ text: Substring) -> [UInt8] {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Array(Data(base64Encoded: base64) ?? Data())
    }
}
