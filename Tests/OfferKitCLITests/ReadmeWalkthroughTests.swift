import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// Every shell walk-through of README.md and of the guides in docs/ runs as written: in a fresh folder
/// holding a copy of `keys-example/`, `templates/` and `examples/`, with the built `offerkit` first on
/// `PATH`, each block exits 0. Every other shell block says why it is not run (see ``ReadmeWalkthroughs``).
@Suite("README and docs/ walk-throughs")
struct ReadmeWalkthroughTests {
    static let readme = ReadmeWalkthroughs.current

    @Test func everyShellBlockIsAWalkthroughOrSaysWhyItIsNotRun() {
        #expect(Self.readme.problems.isEmpty, "\(Self.readme.problems.joined(separator: "\n"))")
        #expect(Self.readme.walkthroughs.contains { $0.name == "codes" }, "the codes walk-through is not marked")
    }

    @Test("README.md and every guide in docs/ are read, and the guides' walk-throughs are found")
    func everyDocumentIsRead() {
        let read = Self.readme.documentsRead
        #expect(read.first == "README.md", "\(read)")
        for guide in ["docs/signing.md", "docs/offer-codes.md", "docs/service.md", "docs/retention-messaging.md"] {
            #expect(read.contains(guide), "\(guide) is not read: \(read)")
            #expect(
                Self.readme.walkthroughs.contains { $0.blocks.first?.document == guide },
                "no walk-through of \(guide) is found")
        }
    }

    @Test("a walk-through split over two documents is refused, and problems name the document and line")
    func walkthroughsLiveInOneDocument() {
        var parsed = ReadmeWalkthroughs(text: "<!-- walkthrough: one -->\n```sh\ntrue\n```\n")
        parsed.read("text\n\n<!-- walkthrough: one -->\n```sh\ntrue\n```\n\n```sh\nfalse\n```\n", document: "docs/x.md")
        #expect(parsed.walkthroughs.count == 1 && parsed.walkthroughs[0].blocks.count == 1)
        #expect(
            parsed.problems == [
                "docs/x.md:4: walk-through one began at README.md:2; a walk-through lives in one document",
                "docs/x.md:8: a shell block without <!-- walkthrough: NAME --> or <!-- not run: REASON --> before it",
            ], "\(parsed.problems)")
    }

    @Test func everyExampleIsTheFileItNames() throws {
        #expect(!Self.readme.examples.isEmpty, "the Swift client's example is not marked <!-- example: FILE -->")
        for example in Self.readme.examples {
            let url = CLI.packageRoot.appendingPathComponent(example.file)
            let file = try String(contentsOf: url, encoding: .utf8)
            #expect(
                file == example.text + "\n",
                "\(example.document):\(example.line) is not \(example.file) as it is; copy the file into the block")
        }
    }

    @Test(arguments: ReadmeWalkthroughs.current.walkthroughs.map(\.name))
    func walkthroughRunsAsWritten(_ name: String) async throws {
        let walkthrough = try #require(Self.readme.walkthroughs.first { $0.name == name })
        let binary = CLI.binary
        let folder = try TempDir.make()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        for copied in ["keys-example", "templates", "examples"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent(copied), to: folder.url.appendingPathComponent(copied))
        }
        for file in walkthrough.given {
            let source = ReadmeWalkthroughs.givenFolder.appendingPathComponent(file)
            try #require(
                FileManager.default.fileExists(atPath: source.path),
                "walk-through \(name) is given \(file), but Tests/Fixtures/readme-walkthrough/ has no such file")
            try FileManager.default.copyItem(at: source, to: folder.url.appendingPathComponent(file))
        }
        let path = binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        var environment = ["PATH": path]
        var standIn: AppStoreConnectStandIn?
        defer { standIn?.stop() }
        var serverStandIn: AppStoreServerStandIn?
        defer { serverStandIn?.stop() }
        if walkthrough.standIns.contains("app-store-server") {
            if let reason = await AppStoreServerStandIn.unavailableReason, !InteropEnvironment.isCI {
                print("SKIPPED LOUDLY: walk-through \(name) needs the App Store Server API stand-in: \(reason)")
                return
            }
            let started = try await AppStoreServerStandIn.start()
            serverStandIn = started
            // As Apple's sandbox does: messages and images are APPROVED at once.
            try await started.configure(#"{"autoApprove": true}"#)
            environment["OFFERKIT_SERVER_API_URL"] = started.baseURL
        }
        var serve: ServerProcess?
        defer { serve?.terminate() }  // when the test ends early; it ends below otherwise
        if let configuration = walkthrough.serve, let standIn = serverStandIn {
            let (server, port) = try await Self.startServe(configuration, in: folder.url, trusting: standIn)
            serve = server
            // Apple requires https; the service is plain http on loopback: the stand-in calls its origin
            // with the path of the URL the walk-through registers.
            try await standIn.configure(#"{"deliverTo": "http://127.0.0.1:\#(port)"}"#)
        } else if let configuration = walkthrough.serve {
            let (server, port, key) = try await Self.startServe(configuration, in: folder.url)
            serve = server
            environment["OFFERKIT_URL"] = "http://127.0.0.1:\(port)"
            environment["OFFERKIT_API_KEY"] = key
        }
        if let package = walkthrough.python {
            let venv = URL(fileURLWithPath: InteropEnvironment.python).deletingLastPathComponent()
            if !FileManager.default.isExecutableFile(atPath: venv.appendingPathComponent("pip").path) {
                try #require(
                    !InteropEnvironment.isCI,
                    "walk-through \(name) needs the interop venv's pip next to OFFERKIT_PYTHON (\(venv.path))")
                print("SKIPPED LOUDLY: walk-through \(name) needs a venv's pip next to OFFERKIT_PYTHON; run .ci/run")
                return
            }
            let target = folder.url.appendingPathComponent(package)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent(package), to: target)
            for leftover in ["build", "dist", "offerkit_client.egg-info"] {
                try? FileManager.default.removeItem(at: target.appendingPathComponent(leftover))
            }
            environment["PATH"] = venv.path + ":" + (environment["PATH"] ?? "")
            // Offline: everything the package needs is in the venv; `wheel` and `setuptools` build it in place.
            environment["PIP_NO_INDEX"] = "1"
            environment["PIP_NO_BUILD_ISOLATION"] = "0"
            environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        }
        if walkthrough.standIns.contains("app-store-connect") {
            if let reason = await AppStoreConnectStandIn.unavailableReason, !InteropEnvironment.isCI {
                print("SKIPPED LOUDLY: walk-through \(name) needs the App Store Connect stand-in: \(reason)")
                return
            }
            // The example campaign's products, and the catalog of its app for the look-ups (the same products).
            let started = try await AppStoreConnectStandIn.start(
                productsFromCampaign: CLI.packageRoot.appendingPathComponent("examples/campaign.json").path,
                extraArguments: ["--catalog", AppStoreConnectStandIn.exampleCatalog])
            standIn = started
            environment["OFFERKIT_CONNECT_API_URL"] = started.baseURL
        }
        for block in walkthrough.blocks {
            let result = try await Self.runShell(
                block.script, in: folder.url, environment: CLI.environment(adding: environment))
            #expect(
                result.status == 0,
                """
                \(block.place) (walk-through \(name)) exited \(result.status):
                \(block.script)
                --- stdout (end):
                \(result.stdout.suffix(2000))
                --- stderr (end):
                \(result.stderr.suffix(2000))
                """)
        }
        if let serve, serverStandIn != nil {
            #expect(
                serve.stderr.contains("retention.decision="),
                "walk-through \(name) started offerkit serve, but no Get Retention Message request reached it")
        }
        if let serve {
            serve.terminate()
            await serve.waitForExit()  // its output is checked for key material too
        }
    }

    /// Starts `offerkit serve --config FILE` for a walk-through: `file` of `folder` with `standIn`'s test
    /// root as `retention.rootCertificates`, written beside it (its relative paths still hold).
    static func startServe(_ file: String, in folder: URL, trusting standIn: AppStoreServerStandIn) async throws
        -> (ServerProcess, Int)
    {
        let source = folder.appendingPathComponent(file)
        guard var configuration = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any],
            var retention = configuration["retention"] as? [String: Any]
        else { throw CLIRunnerError(description: "\(file) has no \"retention\" section for serve:") }
        retention["rootCertificates"] = [standIn.testRootPath]
        configuration["retention"] = retention
        let written = source.deletingLastPathComponent().appendingPathComponent(".walkthrough-service.json")
        try JSONSerialization.data(withJSONObject: configuration, options: [.sortedKeys]).write(to: written)
        let server = try ServerProcess(["serve", "--config", written.path, "--port", "0", "--no-auth"])
        let prefix = "offerkit: listening on http://127.0.0.1:"
        let line = try await server.waitForStderrLine(containing: prefix)
        guard let port = Int(line.dropFirst(prefix.count)) else {
            throw CLIRunnerError(description: "no port in \(line)")
        }
        return (server, port)
    }

    /// Starts `offerkit serve --config FILE` (a file of `folder`) with one new API key that may do everything,
    /// as "Run it" in docs/service.md does; returns the server, its port and the key's secret.
    static func startServe(_ file: String, in folder: URL) async throws -> (ServerProcess, Int, String) {
        let created = try await CLI.run(["api-key", "create", "--name", "walkthrough"])
        let lines = created.stdout.split(separator: "\n").map(String.init)
        guard created.status == 0, lines.count >= 2 else {
            throw CLIRunnerError(description: "offerkit api-key create failed: \(created.stderr)")
        }
        let server = try ServerProcess(
            ["serve", "--config", folder.appendingPathComponent(file).path, "--port", "0"],
            environment: ["OFFERKIT_API_KEYS": "[\(lines[1])]"])
        let prefix = "offerkit: listening on http://127.0.0.1:"
        let line = try await server.waitForStderrLine(containing: prefix)
        guard let port = Int(line.dropFirst(prefix.count)) else {
            throw CLIRunnerError(description: "no port in \(line)")
        }
        return (server, port, lines[0])
    }

    /// Runs `script` with `sh -e` in `folder`; kills it after 300 s.
    static func runShell(_ script: String, in folder: URL, environment: [String: String]) async throws -> CLIResult {
        let scriptURL = folder.appendingPathComponent(".walkthrough-\(UUID().uuidString).sh")
        try Data((script + "\n").utf8).write(to: scriptURL)
        defer { try? FileManager.default.removeItem(at: scriptURL) }
        let process = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-e", scriptURL.path], environment: environment, currentDirectory: folder,
            watchdog: 300)
        let ending = await process.ending()
        var stderr = process.stderr
        if process.watchdogFired { stderr += "\n[test: the block did not finish within 300 s and was killed]" }
        let result = CLIResult(
            arguments: ["sh", "-e", "<walk-through block>"], status: ending.rawStatus, stdout: process.stdout,
            stderr: stderr)
        OutputLog.shared.record(result)  // checked for key material like every other run
        return result
    }
}
