import Foundation
import InteropSupport
import Testing

/// Python with openapi-spec-validator, jsonschema and PyYAML (the venv `.ci/run` makes), for
/// checking the OpenAPI document with tools independent of the Swift code.
///
/// Missing on a developer machine: the tests that need it are skipped with a loud reason. With
/// `CI` set they run anyway and fail, so CI can never pass without them.
enum OpenAPIPython {
    /// `Tests/Interop/check_openapi.py`.
    static let checkScript = ServiceFixtures.packageRoot.appendingPathComponent("Tests/Interop/check_openapi.py").path

    static var isCI: Bool { InteropEnvironment.isCI }

    /// `OFFERKIT_PYTHON` or `python3` from PATH.
    static var python: String { InteropEnvironment.python }

    static var available: Bool {
        get async {
            await ExternalProcess.succeeds(
                python, ["-c", "import openapi_spec_validator, jsonschema, referencing, yaml"])
        }
    }

    /// Whether the tests that need Python should run: when it is there, and always in CI.
    static var shouldRun: Bool {
        get async { await available || isCI }
    }

    static let reason = Comment(
        rawValue: "SKIPPED LOUDLY: \(python) cannot import openapi_spec_validator, jsonschema and yaml, so the "
            + "OpenAPI document is not checked by independent tools here (run .ci/run, or pip install "
            + "openapi-spec-validator jsonschema PyYAML and set OFFERKIT_PYTHON; CI never skips this)")

    typealias Result = ExternalProcess.Result

    /// Runs Python with `arguments` through `/usr/bin/env`, output through files.
    static func run(_ arguments: [String]) async throws -> Result {
        try await ExternalProcess.run(python, arguments)
    }

    /// Runs `check_openapi.py` on `json` (and `yaml`, when given), written to temporary files.
    static func check(json: String, yaml: String? = nil) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-check-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jsonURL = folder.appendingPathComponent("openapi.json")
        try Data(json.utf8).write(to: jsonURL)
        var arguments = [checkScript, jsonURL.path]
        if let yaml {
            let yamlURL = folder.appendingPathComponent("openapi.yaml")
            try Data(yaml.utf8).write(to: yamlURL)
            arguments.append(yamlURL.path)
        }
        return try await run(arguments)
    }

    /// Whether PyYAML's `safe_load` of `yaml` equals `json.loads` of `json`; on a difference,
    /// stdout holds both values.
    static func yamlLoadsAsJSON(yaml: String, json: String) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-yaml-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let yamlURL = folder.appendingPathComponent("value.yaml")
        let jsonURL = folder.appendingPathComponent("value.json")
        try Data(yaml.utf8).write(to: yamlURL)
        try Data(json.utf8).write(to: jsonURL)
        return try await run([
            "-c",
            """
            import json, sys, yaml
            loaded = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
            expected = json.load(open(sys.argv[2], encoding="utf-8"))
            if loaded != expected:
                print("YAML:", repr(loaded)); print("JSON:", repr(expected)); sys.exit(1)
            """,
            yamlURL.path, jsonURL.path,
        ])
    }
}
