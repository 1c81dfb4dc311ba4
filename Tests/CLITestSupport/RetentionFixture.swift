import Foundation
import InteropSupport
import Testing

/// A test's App Store Server API stand-in and the way it runs `offerkit retention …` against it: the
/// demo key's credentials (keys-example/config.json) and `OFFERKIT_SERVER_API_URL` set to the stand-in.
struct RetentionFixture {
    static var available: Bool {
        get async { await AppStoreServerStandIn.unavailableReason == nil }
    }

    static let reason = Comment(
        rawValue: "SKIPPED LOUDLY: the App Store Server API stand-in (Tests/StandIns/app_store_server.py) cannot run "
            + "because \(InteropEnvironment.python) cannot import jwt, cryptography and "
            + "appstoreserverlibrary (run .ci/run, or pip install them and set OFFERKIT_PYTHON); CI never skips this")

    static let message = "3f2b1c4e-8a7d-4f3e-9b2a-1c0d5e6f7a8b"
    static let monthly = "com.example.offerkit.monthly"

    let standIn: AppStoreServerStandIn
    let folder: TempDir

    init(environment: String = "Sandbox") async throws {
        standIn = try await AppStoreServerStandIn.start(environment: environment)
        folder = try TempDir.make()
    }

    func stop() {
        standIn.stop()
        try? FileManager.default.removeItem(at: folder.url)
    }

    /// `offerkit retention ARGUMENTS --config keys-example/config.json` against the stand-in.
    func run(_ arguments: [String], environment: [String: String] = [:], credentials: Bool = true) async throws
        -> CLIResult
    {
        try await CLI.run(
            ["retention"] + arguments + (credentials ? ["--config", DemoKey.configPath] : []),
            environment: ["OFFERKIT_SERVER_API_URL": standIn.baseURL].merging(environment) { $1 })
    }

    /// The number of requests the stand-in got for `"METHOD /template"`.
    func requests(_ key: String) async throws -> Int {
        await (try standIn.state()["requests"] as? [String: Int])?[key] ?? 0
    }

    /// The stand-in's log of API requests: `(method, path, status, errorCode, outcome)`.
    func log() async throws -> [[String: Any]] { try await standIn.state()["log"] as? [[String: Any]] ?? [] }

    /// `value` as JSON with sorted keys, to compare what JSONSerialization read.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Writes a PNG of `width` × `height` to the test's folder.
    func png(_ name: String, width: Int, height: Int, colorType: UInt8 = 2, extraChunks: [(String, [UInt8])] = [])
        throws -> String
    {
        let path = folder.file(name)
        try TestPNG.make(width: width, height: height, colorType: colorType, extraChunks: extraChunks)
            .write(to: URL(fileURLWithPath: path))
        return path
    }
}
