import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit vectors --out DIR`, run as the built binary: the files, their independence from us
/// (Python rebuilds and verifies them), and the README's own commands.
@Suite("offerkit vectors")
struct VectorsCommandTests {
    static let committed = CLI.packageRoot.appendingPathComponent("Tests/Vectors")
    static let verifyScript = CLI.packageRoot.appendingPathComponent("Tests/Interop/verify_vectors.py").path
    static let fileNames = ["README.md", "offerkit-vectors.json", "public-key.pem"]

    static var jqAvailable: Bool {
        get async { await ExternalProcess.succeeds("jq", ["--version"]) }
    }
    static let jqReason = Comment(
        rawValue: "SKIPPED LOUDLY: jq is not on PATH, so the vectors README's shell commands are not run here "
            + "(apt-get install jq; CI never skips this)")

    @Test("with the demo key it writes what Tests/Vectors holds, with a warning")
    func demoKeyMatchesCommittedFolder() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let out = folder.file("vectors/nested")
        let result = try await CLI.run(["vectors", "--out", out])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("demo key"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == Self.fileNames)
        for name in ["README.md", "public-key.pem"] {
            let written = try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent(name))
            let expected = try Data(contentsOf: Self.committed.appendingPathComponent(name))
            #expect(written == expected, "\(name) differs from Tests/Vectors/\(name)")
        }
        #expect(
            try String(contentsOfFile: out + "/public-key.pem", encoding: .utf8)
                == (try String(contentsOfFile: DemoKey.publicKeyPath, encoding: .utf8)))
        for name in Self.fileNames {
            #expect(FileMode.of(out + "/" + name) == 0o644, "\(name)")
            // The files join the CLI's output in the scan for the demo key's private material.
            let text = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            OutputLog.shared.record(
                CLIResult(arguments: ["vectors", "(\(name))"], status: 0, stdout: text, stderr: ""))
        }
    }

    @Test(
        "the vectors for another key, issuer and app pass the independent verifier",
        .enabled(Independent.pythonReason) { await Independent.pythonAvailable || Independent.isCI })
    func anotherKeyVerifiesIndependently() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let key = try folder.write(
            try String(contentsOf: DemoKey.fixtureKeys.appendingPathComponent("p256.pkcs8.pem"), encoding: .utf8),
            to: "key.p8", mode: 0o600)
        let out = folder.file("out")
        let result = try await CLI.run([
            "vectors", "--out", out, "--key-file", key, "--key-id", "ABCDEF1234",
            "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a", "--bundle-id", "com.example.other-app",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("demo key"), "\(result)")
        let check = try await Independent.run(Independent.python, [Self.verifyScript, out + "/offerkit-vectors.json"])
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        #expect(check.stdout.contains("interop: 18 passed, 0 failed"), "\(check.stdout)")
        let vectors = try String(contentsOfFile: out + "/offerkit-vectors.json", encoding: .utf8)
        #expect(vectors.contains("\"keyId\" : \"ABCDEF1234\"") && vectors.contains("com.example.other-app"))
        #expect(!vectors.contains("DEMOKEY123"))
        let publicKey = try String(
            contentsOf: DemoKey.fixtureKeys.appendingPathComponent("p256.pub.pem"), encoding: .utf8)
        #expect(try String(contentsOfFile: out + "/public-key.pem", encoding: .utf8) == publicKey)
        let readme = try String(contentsOfFile: out + "/README.md", encoding: .utf8)
        #expect(readme.contains("`ABCDEF1234`") && readme.contains("com.example.other-app"))
        for name in Self.fileNames {
            #expect(!(try String(contentsOfFile: out + "/" + name, encoding: .utf8)).contains("PRIVATE"), "\(name)")
        }
    }

    @Test(
        "the README's commands run as written: openssl verifies the legacy case, PyJWT the JWS",
        .enabled(Independent.pythonReason) {
            let python = await Independent.pythonAvailable
            let openssl = await Independent.opensslAvailable
            return (python && openssl) || Independent.isCI
        },
        .enabled(jqReason) { await jqAvailable || Independent.isCI })
    func readmeCommandsRun() async throws {
        let readme = try String(
            contentsOf: Self.committed.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "```sh\n").dropFirst().first?
                .components(separatedBy: "```").first)
        let folder = try TempDir.make()
        defer { folder.remove() }
        for name in Self.fileNames {
            try FileManager.default.copyItem(
                at: Self.committed.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        // `python3` in the README is the one with PyJWT: put OFFERKIT_PYTHON's folder first on PATH.
        let pythonFolder = URL(fileURLWithPath: Independent.python).deletingLastPathComponent().path
        let script = "set -e\ncd '\(folder.path)'\nexport PATH='\(pythonFolder)':\"$PATH\"\n" + block
        let run = try await Independent.run("bash", ["-c", script])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("Verified OK"), "\(run.stdout)")
        #expect(run.stdout.contains("'aud': 'promotional-offer'"), "\(run.stdout)")
    }

    @Test("existing files are kept without --force (exit 5) and replaced with it")
    func refusesToReplaceWithoutForce() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let kept = try folder.write("mine\n", to: "public-key.pem")
        let refused = try await CLI.run(["vectors", "--out", folder.path])
        #expect(refused.status == 5, "\(refused)")
        #expect(refused.stderr.contains("public-key.pem") && refused.stderr.contains("--force"), "\(refused)")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "mine\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["public-key.pem"])

        let replaced = try await CLI.run(["vectors", "--out", folder.path, "--force"])
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == Self.fileNames)
    }

    @Test("--out is required, and a key that does not load is a credentials error (exit 3)")
    func errors() async throws {
        let missing = try await CLI.run(["vectors"])
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("--out"), "\(missing)")
        let folder = try TempDir.make()
        defer { folder.remove() }
        let badKey = try folder.write("not a key\n", to: "AuthKey_ABCDEF1234.p8", mode: 0o600)
        let refused = try await CLI.run([
            "vectors", "--out", folder.file("out"), "--key-file", badKey, "--issuer-id",
            "57246542-96fe-1a63-e053-0824d011072a", "--bundle-id", "com.example.app",
        ])
        #expect(refused.status == 3, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")), "nothing is written on failure")
    }

    @Test("a target that is a folder fails before anything is written, even with --force")
    func noMixedSet() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let oldKey = try folder.write("old key\n", to: "public-key.pem")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("README.md"), withIntermediateDirectories: false)
        let result = try await CLI.run(["vectors", "--out", folder.path, "--force"])
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.contains("README.md") && result.stderr.contains("folder"), "\(result)")
        #expect(try String(contentsOfFile: oldKey, encoding: .utf8) == "old key\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("offerkit-vectors.json")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "README.md", "public-key.pem",
            ])
    }
}
