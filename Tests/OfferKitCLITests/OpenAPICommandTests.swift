import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit openapi`, run as the built binary.
@Suite("offerkit openapi")
struct OpenAPICommandTests {
    static let committedPath = CLI.packageRoot.appendingPathComponent("openapi.json").path

    static var yamlAvailable: Bool {
        get async { await ExternalProcess.succeeds(Independent.python, ["-c", "import yaml"]) }
    }
    static let yamlReason = Comment(
        rawValue: "SKIPPED LOUDLY: \(Independent.python) cannot import yaml, so `offerkit openapi --format yaml` is "
            + "not parsed here (pip install PyYAML and set OFFERKIT_PYTHON; CI never skips this)")

    @Test("stdout is the committed openapi.json, byte for byte, ending in a newline")
    func stdoutIsCommittedFile() async throws {
        let result = try await CLI.run(["openapi"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let committed = try String(contentsOfFile: Self.committedPath, encoding: .utf8)
        #expect(
            result.stdout == committed,
            "openapi.json is out of date: run `swift run offerkit openapi --out openapi.json --force`")
        #expect(result.stdout.hasSuffix("}\n"))
        #expect(result.json?["openapi"] == .string("3.1.0"))
    }

    @Test(
        "--format yaml loads (PyYAML) to the JSON document",
        .enabled(yamlReason) { await yamlAvailable || Independent.isCI }
    )
    func yamlParses() async throws {
        let result = try await CLI.run(["openapi", "--format", "yaml"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("openapi: \"3.1.0\"\n"))
        let script = """
            import json, sys, yaml
            loaded = yaml.safe_load(sys.stdin)
            expected = json.load(open(sys.argv[1], encoding="utf-8"))
            sys.exit(0 if loaded == expected else "the YAML does not load to the JSON document")
            """
        let check = try await Independent.run(
            Independent.python, ["-c", script, Self.committedPath], stdin: Data(result.stdout.utf8))
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test("--out writes the file (0644, nothing on stdout), refuses to replace it without --force")
    func outWritesFile() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = folder.file("openapi.json")
        let written = try await CLI.run(["openapi", "--out", path])
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == (try String(contentsOfFile: Self.committedPath, encoding: .utf8)))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o644)

        let refused = try await CLI.run(["openapi", "--format", "yaml", "--out", path])
        #expect(refused.status != 0, "\(refused)")
        #expect(refused.stderr.contains("already exists"), "\(refused)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "the file was changed")

        let replaced = try await CLI.run(["openapi", "--format", "yaml", "--out", path, "--force"])
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("openapi: \"3.1.0\"\n"))
    }

    @Test("--force without --out and an unknown format are usage errors")
    func usageErrors() async throws {
        let force = try await CLI.run(["openapi", "--force"])
        #expect(force.status == 2, "\(force)")
        #expect(force.stderr.contains("--force"), "\(force)")
        let format = try await CLI.run(["openapi", "--format", "xml"])
        #expect(format.status == 2, "\(format)")
    }
}
