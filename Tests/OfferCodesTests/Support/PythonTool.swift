import Foundation
import Testing

/// Runs `Tests/Interop/validate_asc_requests.py` (Python's `jsonschema`, not OfferKit's code) on
/// request plans, against Apple's App Store Connect API 4.4.1 schemas.
///
/// On a developer machine without Python, `jsonschema` or the schemas, the schema tests are
/// skipped with a loud reason; with `CI` set they run anyway and fail, so CI can never pass
/// without the independent check.
enum PythonTool {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return !value.isEmpty && value != "false" && value != "0"
    }

    /// `OFFERKIT_PYTHON` (the venv `.ci/run` makes) or `python3` from PATH.
    static var python: String { ProcessInfo.processInfo.environment["OFFERKIT_PYTHON"] ?? "python3" }

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

    static let jsonschemaAvailable: Bool =
        (try? run(python, ["-c", "import jsonschema, referencing"]).status) == 0

    /// Whether the schema checks can run here.
    static var available: Bool { jsonschemaAvailable && schemas != nil }

    static let reason = Comment(
        rawValue: "SKIPPED LOUDLY: request bodies are not checked against Apple's schemas here because "
            + (jsonschemaAvailable
                ? "offer_code_schemas_4.4.1.json was not found (set OFFERKIT_ASC_SCHEMAS)"
                : "\(python) cannot import jsonschema and referencing (run .ci/run, or pip install jsonschema and "
                    + "set OFFERKIT_PYTHON)") + "; CI never skips this")

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The script writes little to stderr (usage errors), so reading stdout first cannot block it.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs the validator on plan files (plan documents or arrays of requests), in one Python run.
    static func validate(planFiles: [URL]) throws -> Result {
        let schemas = try #require(schemas, "Apple's offer-code schemas were not found (set OFFERKIT_ASC_SCHEMAS)")
        return try run(python, [script, schemas] + planFiles.map(\.path))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
