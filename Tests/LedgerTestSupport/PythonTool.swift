import Foundation
import InteropSupport
import Testing

/// Runs `Tests/Interop/validate_asc_requests.py` (Python's `jsonschema`, not OfferKit's code) on
/// request plans, against Apple's App Store Connect API 4.4.1 schemas.
///
/// On a developer machine without Python, `jsonschema` or the schemas, the schema tests are
/// skipped with a loud reason; with `CI` set they run anyway and fail, so CI can never pass
/// without the independent check.
enum PythonTool {
    typealias Result = ExternalProcess.Result

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var isCI: Bool { InteropEnvironment.isCI }

    /// `OFFERKIT_PYTHON` (the venv `.ci/run` makes) or `python3` from PATH.
    static var python: String { InteropEnvironment.python }

    static let script = packageRoot.appendingPathComponent("Tests/Interop/validate_asc_requests.py").path

    /// Apple's schemas: `OFFERKIT_ASC_SCHEMAS`, else the committed copy in
    /// `Tests/Fixtures/app-store-connect/`. The paths summary must sit next to it.
    static let schemas: String? = {
        let name = "offer_code_schemas_4.4.1.json"
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["OFFERKIT_ASC_SCHEMAS"],
            packageRoot.appendingPathComponent("Tests/Fixtures/app-store-connect/\(name)").path,
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }()

    static var jsonschemaAvailable: Bool {
        get async { await ExternalProcess.succeeds(python, ["-c", "import jsonschema, referencing"]) }
    }

    /// Whether the schema checks can run here.
    static var available: Bool {
        get async { await jsonschemaAvailable && schemas != nil }
    }

    static let reason = Comment(
        rawValue: "SKIPPED LOUDLY: request bodies are not checked against Apple's schemas here because "
            + "\(python) cannot import jsonschema and referencing (run .ci/run, or pip install jsonschema and set "
            + "OFFERKIT_PYTHON) or offer_code_schemas_4.4.1.json was not found (set OFFERKIT_ASC_SCHEMAS); CI never "
            + "skips this")

    /// Runs a tool through `/usr/bin/env` (output through files, so nothing can block).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) async throws -> Result {
        try await ExternalProcess.run(executable, arguments)
    }

    /// Runs the validator on plan files (plan documents or arrays of requests), in one Python run.
    static func validate(planFiles: [URL]) async throws -> Result {
        let schemas = try #require(schemas, "Apple's offer-code schemas were not found (set OFFERKIT_ASC_SCHEMAS)")
        return try await run(python, [script, schemas] + planFiles.map(\.path))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
