import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// The command line reads enumerated values in any case and writes one spelling; one credentials
/// format serves `--config` and the service's `apps`; `serve` reports every configuration problem.
@Suite("offerkit: one spelling per value, one credentials format, every problem at once")
struct SpellingAndConfigurationTests {
    @Test("codes flags take App Store Connect's environments and the formats in any case")
    func codesFlags() async throws {
        guard let handOut = try await HandOut.make("sqlite") else { return }
        defer { handOut.remove() }
        let claim = try await handOut.claim(
            HandOut.personal, "alice", ["--environment", "Production", "--format", "JSON"])
        #expect(claim.status == 0, "\(claim)")
        #expect(JSON.parse(claim.stdout)?["environment"] == .string("PRODUCTION"), "\(claim)")
        // SANDBOX is read as App Store Connect's sandbox: the offer simply has none (exit 4, not a usage error).
        Expect.failure(
            try await handOut.claim(HandOut.personal, "alice", ["--environment", "SANDBOX"]), status: 4,
            mentioning: ["no sandbox codes"])
        Expect.failure(
            try await handOut.claim(HandOut.personal, "alice", ["--environment", "staging"]), status: 2,
            mentioning: ["staging", "PRODUCTION", "SANDBOX"])
        let export = try await handOut.run("export", ["--offer", HandOut.personal, "--environment", "sandbox"])
        Expect.failure(export, status: 4, mentioning: ["in SANDBOX (--environment)"])
        let all = try await handOut.run(
            "export", ["--offer", HandOut.personal, "--environment", "ALL", "--format", "Json"])
        #expect(all.status == 0, "\(all)")
        // The table writes the one spelling too.
        let table = try await handOut.run("status")
        #expect(table.status == 0 && table.stdout.contains("  PRODUCTION  "), "\(table)")
        #expect(!table.stdout.contains("  production  "), "\(table)")
    }

    @Test("verify-apple takes Apple's environment names in any case; local-testing is noted as deprecated")
    func verifyAppleEnvironment() async throws {
        let directory = try TempDir.make()
        defer { directory.remove() }
        let root = try directory.write(VerifyAppleCommandTests.cases.roots["test"] ?? "", to: "root.pem")
        let accepted = VerifyAppleCommandTests.cases.cases.filter { $0.expect == "accept" }
        let sandbox = try #require(accepted.first { $0.environment == "Sandbox" })
        let file = try directory.write(sandbox.jws, to: "sandbox.jws")
        var flags = VerifyAppleCommandTests.flags(sandbox, root: root)
        let index = try #require(flags.firstIndex(of: "--environment"))
        for spelling in ["SANDBOX", "Sandbox", "sandBox"] {
            flags[index + 1] = spelling
            let result = try await CLI.run(["verify-apple", "--jws-file", file] + flags)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(spelling)\n\(result)")
        }
        if let local = accepted.first(where: { $0.environment == "LocalTesting" }) {
            let localFile = try directory.write(local.jws, to: "local.jws")
            var localFlags = VerifyAppleCommandTests.flags(local, root: root)
            let at = try #require(localFlags.firstIndex(of: "--environment"))
            localFlags[at + 1] = "LOCALTESTING"
            await #expect(try CLI.run(["verify-apple", "--jws-file", localFile] + localFlags).status == 0)
            localFlags[at + 1] = "local-testing"
            let deprecated = try await CLI.run(["verify-apple", "--jws-file", localFile] + localFlags)
            #expect(deprecated.status == 0 && deprecated.stderr.contains("'LocalTesting'"), "\(deprecated)")
        }
        let help = try await CLI.run(["verify-apple", "--help"])
        #expect(help.stdout.contains("Production, Sandbox, Xcode or LocalTesting"), "\(help)")
    }

    @Test("--config takes a service configuration: its apps are the same entries")
    func configTakesServiceConfiguration() async throws {
        let service = CLI.packageRoot.appendingPathComponent("keys-example/service.json").path
        let (result, jws) = try await CredentialTests.sign([
            "--config", service, "--bundle-id", "com.example.offerkit.other",
        ])
        Expect.noDemoWarning(result)
        #expect(jws.claims["bid"] == .string("com.example.offerkit.other"), "\(result)")

        // A file with apps and members a service configuration does not have is neither format.
        let directory = try TempDir.make()
        defer { directory.remove() }
        let text = try String(contentsOfFile: service, encoding: .utf8)
        let odd = try directory.write(
            text.replacingOccurrences(of: #""limits": {"#, with: #""limit": {"#), to: "odd.json")
        Expect.failure(
            try await CLI.run(CredentialTests.signArguments + ["--config", odd, "--bundle-id", DemoKey.bundleId]),
            status: 3, mentioning: ["\"limit\"", "service configuration", "keys-example/config.json"])
    }

    @Test("serve: every problem of the configuration at once, exit 3; the CLI's credentials file is named")
    func serveEveryProblem() async throws {
        let directory = try TempDir.make()
        defer { directory.remove() }
        let config = try directory.write(
            """
            {"apps": {"\(DemoKey.bundleId)": {"keyFile": "\(DemoKey.keyPath)", "keyId": "demokey123",
                      "issuerId": "\(DemoKey.issuerId)"}},
             "limits": {"burst": 0},
             "retention": {"environments": ["sandbox", "staging"]}}
            """, to: "service.json")
        let result = try await CLI.run(["serve", "--config", config, "--port", "0", "--no-auth"])
        Expect.failure(
            result, status: 3,
            mentioning: [
                "3 problems", #"apps["\#(DemoKey.bundleId)"].keyId"#, "limits.burst", "retention.environments[1]",
                #""staging""#,
            ])
        let cliConfig = try await CLI.run(["serve", "--config", DemoKey.configPath, "--port", "0", "--no-auth"])
        Expect.failure(
            cliConfig, status: 3, mentioning: ["--config", "keys-example/config.json", "keys-example/service.json"])
    }
}
