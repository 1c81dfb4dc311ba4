import Foundation
import OfferKitClient
import OpenAPIRuntime
import Testing

/// The live services of `clients/tests/python/live_service.py serve` (the same ones the Python client's tests
/// meet): two `offerkit serve` on loopback ports, API keys, signed real-time requests and the campaign to
/// plan. Stopped by ``stop()``, which closes the helper's stdin: it sends SIGTERM to both services and exits 1
/// when one did not exit 0.
final class LiveService: @unchecked Sendable {
    /// What the helper printed.
    struct Description: Decodable, Sendable {
        struct Claim: Decodable, Sendable {
            var campaign: String
            var offer: String
            var emptyOffer: String
        }
        var url: String
        var limitedUrl: String
        var keys: [String: String]
        var signedPayloads: [String]
        var bundleId: String
        var otherBundleId: String
        var campaign: Components.Schemas.Campaign
        var planRequest: Components.Schemas.PlanCampaignRequest
        var claim: Claim
    }

    /// The repository's root (this file is clients/tests/Tests/OfferKitClientTests/LiveService.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let helper = root.appendingPathComponent("clients/tests/python/live_service.py")

    /// `$OFFERKIT_PYTHON` (set by .ci/run), else the interop venv's Python: it needs cryptography and PyJWT.
    static var python: URL {
        if let path = ProcessInfo.processInfo.environment["OFFERKIT_PYTHON"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return root.appendingPathComponent(".build/interop-venv/bin/python")
    }

    let description: Description
    private let process = Process()
    private let input = Pipe()
    private let errors: URL

    /// Starts the helper and waits for its description (the services are listening then).
    init() throws {
        errors = FileManager.default.temporaryDirectory.appendingPathComponent("live-service-\(UUID()).stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let output = Pipe()
        process.executableURL = Self.python
        process.arguments = [Self.helper.path, "serve"]
        process.currentDirectoryURL = Self.root
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let decoded = try? JSONDecoder().decode(Description.self, from: line) else {
            process.waitUntilExit()
            throw LiveServiceError(
                "live_service.py serve did not describe the services: \(String(decoding: line, as: UTF8.self))\n"
                    + Self.text(of: errors))
        }
        description = decoded
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: errors)
    }

    /// Stops both services (SIGTERM) and returns the helper's exit status: 0 when both exited 0.
    func stop() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        if process.terminationStatus != 0 { print(Self.text(of: errors)) }
        return process.terminationStatus
    }

    /// A client of the service at `url` with the API key `key` (`all`, `narrow`, `limited`; `nil`: none).
    func client(_ key: String? = "all", limited: Bool = false, middlewares: [any ClientMiddleware] = []) -> Client {
        Client(
            serverURL: URL(string: limited ? description.limitedUrl : description.url)!,
            apiKey: key.map { description.keys[$0] ?? $0 }, middlewares: middlewares)
    }

    /// Verifies each compact JWS with PyJWT and cryptography (ES256, the demo key, `aud`) and each legacy
    /// signature (as the service answered it) with openssl: `live_service.py verify`. Returns the claims of
    /// each JWS, in order.
    static func verify(jws: [(token: String, aud: String)], legacy: [[String: Any]] = []) throws -> [[String: Any]] {
        let request: [String: Any] = [
            "jws": jws.map { ["token": $0.token, "aud": $0.aud] }, "legacy": legacy,
        ]
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.executableURL = python
        process.arguments = [helper.path, "verify"]
        process.currentDirectoryURL = root
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let answer = try JSONSerialization.jsonObject(with: printed) as? [String: Any],
            let claims = answer["claims"] as? [[String: Any]]
        else { throw LiveServiceError("the independent verification failed: \(complaint)") }
        return claims.map { ($0["claims"] as? [String: Any]) ?? [:] }
    }

    private static func text(of file: URL) -> String {
        String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
    }
}

/// What went wrong while running the helper.
struct LiveServiceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
