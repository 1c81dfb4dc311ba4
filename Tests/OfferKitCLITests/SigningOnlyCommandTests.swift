import CLIUnderTest
import Foundation
import OfferKitSigningCLI
import OfferService
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit` built with its sign commands only (the package without its trait AllCommands:
/// `swift build --disable-default-traits --product offerkit`), run as OfferKitSigningCLI's entry point
/// (``CLIUnderTest/signingOnlyExecutable``): it signs on the demo key as the README's first command
/// does, gives what the full `offerkit` gives for every sign command (output, errors, exit codes,
/// help), and refuses any other command with a message that says what this build has.
@Suite(
    "offerkit with its sign commands only",
    .enabled(if: CLIUnderTest.signingOnlyExecutable != nil, "the links to the test binary need /proc/self/exe"))
struct SigningOnlyCommandTests {
    /// Runs the signing-only `offerkit`.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil, cwd: URL? = nil
    ) async throws -> CLIResult {
        let executable = try #require(CLIUnderTest.signingOnlyExecutable)
        return try await CLI.run(arguments, environment: environment, stdin: stdin, cwd: cwd, executable: executable)
    }

    /// The README's first command, without `swift run --disable-default-traits`.
    static let readmeCommand = [
        "sign", "promotional-offer", "--product-id", "com.example.offerkit.monthly", "--offer-identifier", "WINBACK50",
    ]

    @Test("the README's first command is this one, run with swift run --disable-default-traits")
    func readmeFirstCommand() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let fresh = try #require(readme.components(separatedBy: "## On a fresh machine").dropFirst().first)
        let block = try #require(fresh.components(separatedBy: "```sh\n").dropFirst().first)
        let commands = block.components(separatedBy: "```").first ?? ""
        let first = DemoKeyRuleTests.squeezed(commands.replacingOccurrences(of: "\\\n", with: " "))
        let expected =
            "swift run --disable-default-traits offerkit " + Self.readmeCommand.joined(separator: " ") + " swift test"
        #expect(first == expected)
    }

    @Test("the README's first command signs on the demo key, with the warning; the library verifies it")
    func readmeCommandSignsOnTheDemoKey() async throws {
        let result = try await Self.run(Self.readmeCommand)
        Expect.success(result)
        #expect(result.stderr.contains(Credentials.demoWarning), "\(result)")
        let jws = try #require(DecodedJWS(result.output), "not a compact JWS: \(result)")
        #expect(jws.headerText == SignCommandTests.expectedHeader)
        #expect(jws.claims["productId"]?.string == "com.example.offerkit.monthly")
        #expect(jws.claims["offerIdentifier"]?.string == "WINBACK50")
        #expect(jws.claims["bid"]?.string == DemoKey.bundleId)
        #expect(throws: Never.self) { try JWSVerifier(key: DemoKey.key).verify(result.output, as: .promotionalOffer) }
    }

    @Test(
        "the README's first command's JWS verifies with PyJWT and cryptography",
        .enabled(Independent.pythonReason) { await Independent.pythonAvailable || Independent.isCI })
    func readmeCommandVerifiesWithPython() async throws {
        let result = try await Self.run(Self.readmeCommand)
        Expect.success(result)
        let verified = try await Independent.verifyWithPython([(result.output, "promotional-offer")])
        let item = try #require(verified.first)
        #expect(item.header == .object(["alg": .string("ES256"), "kid": .string("DEMOKEY123"), "typ": .string("JWT")]))
        #expect(item.claims["iss"]?.string == DemoKey.issuerId)
        #expect(item.claims["bid"]?.string == DemoKey.bundleId)
        #expect(item.claims["productId"]?.string == "com.example.offerkit.monthly")
        #expect(item.claims["offerIdentifier"]?.string == "WINBACK50")
    }

    @Test(
        "its legacy signature verifies with openssl dgst",
        .enabled(Independent.opensslReason) { await Independent.opensslAvailable || Independent.isCI })
    func legacyVerifiesWithOpenSSL() async throws {
        let result = try await Self.run(
            [
                "sign", "legacy-promotional-offer", "--product-id", Fixed.productId, "--offer-identifier",
                Fixed.offerId, "--nonce", Fixed.nonceUpper, "--timestamp", String(Fixed.timestamp),
            ] + DemoKey.flags)
        Expect.success(result)
        let message = Independent.legacyMessage(
            productId: Fixed.productId, offerId: Fixed.offerId, appAccountToken: "", nonce: Fixed.nonce,
            timestamp: Fixed.timestamp)
        let verified = try await Independent.opensslVerify(signatureBase64: result.output, message: message)
        #expect(verified.status == 0 && verified.stdout.contains("Verified OK"), "\(verified)\n\(result)")
    }

    /// `text` without what differs between two signatures of the same input (ECDSA signatures are
    /// randomized): a compact JWS's signature, and the `signature` member of a JSON object.
    static func withoutSignatures(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if let jws = DecodedJWS(String(line)) { return jws.segments.prefix(2).joined(separator: ".") }
            guard line.hasPrefix("{"),
                var object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            else { return String(line) }
            object["signature"] = object["signature"] == nil ? nil : "(signature)"
            if let compact = object["jws"] as? String, let jws = DecodedJWS(compact) {
                object["jws"] = jws.segments.prefix(2).joined(separator: ".")
            }
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
                return String(line)
            }
            return String(decoding: data, as: UTF8.self)
        }
        return lines.joined(separator: "\n")
    }

    @Test("every sign command gives what the full offerkit gives: output, errors, exit codes and help")
    func sameAsTheFullOfferkit() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let request = try folder.write(Fixed.oneTimeChargeJSON, to: "request.json")
        let promotional = [
            "sign", "promotional-offer", "--product-id", Fixed.productId, "--offer-identifier", Fixed.offerId,
            "--transaction-id", Fixed.transactionId, "--nonce", Fixed.nonceUpper, "--issued-at", String(Fixed.iat),
        ]
        let legacy = [
            "sign", "legacy-promotional-offer", "--product-id", Fixed.productId, "--offer-identifier", Fixed.offerId,
            "--nonce", Fixed.nonceUpper, "--timestamp", String(Fixed.timestamp), "--format", "json",
        ]
        let eligibility = [
            "sign", "introductory-offer-eligibility", "--product-id", Fixed.productId, "--allow-intro", "true",
            "--transaction-id", Fixed.transactionId, "--nonce", Fixed.nonceUpper, "--issued-at", String(Fixed.iat),
        ]
        let commerce = [
            "sign", "advanced-commerce", "--request", request, "--nonce", Fixed.nonceUpper, "--issued-at",
            String(Fixed.iat),
        ]
        let fixedNonce = ["--nonce", Fixed.nonceUpper]
        let fixedTime = ["--issued-at", String(Fixed.iat)]
        let runs: [(arguments: [String], stdin: Data?, cwd: URL?)] = [
            // Signed, in both formats, with every deprecated spelling's note.
            (promotional + DemoKey.flags, nil, nil),
            (promotional + ["--format", "json"] + DemoKey.flags, nil, nil),
            (promotional + ["--format", "Json"] + DemoKey.flags, nil, nil),
            (
                ["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--iat", "1700000000"]
                    + fixedNonce, nil, nil
            ),
            (legacy + DemoKey.flags(without: "--issuer-id"), nil, nil),
            (
                [
                    "sign", "promotional-offer-v1", "--product-id", "p", "--offer-identifier", "o", "--format", "json",
                    "--nonce", Fixed.nonceUpper, "--timestamp", String(Fixed.timestamp),
                ], nil, nil
            ),
            (eligibility + DemoKey.flags, nil, nil),
            (
                ["sign", "intro-eligibility", "--product-id", "p", "--allow-intro", "false", "--transaction-id", "1"]
                    + fixedNonce + fixedTime, nil, nil
            ),
            (commerce + ["--format", "json"] + DemoKey.flags, nil, nil),
            (
                ["sign", "advanced-commerce", "--request", "-"] + fixedNonce + fixedTime + DemoKey.flags,
                Data(Fixed.oneTimeChargeJSON.utf8), nil
            ),
            // The demo key from the checkout; none elsewhere (exit 3, the rule).
            (Self.readmeCommand + fixedNonce + fixedTime, nil, nil),
            (Self.readmeCommand, nil, folder.url),
            // Credentials from the environment's errors, a config file, a service configuration.
            (Self.readmeCommand + fixedNonce + fixedTime + ["--config", DemoKey.configPath], nil, folder.url),
            (
                Self.readmeCommand + fixedNonce + fixedTime + [
                    "--config", CLI.packageRoot.appendingPathComponent("keys-example/service.json").path,
                    "--bundle-id", "com.example.offerkit.other",
                ], nil, folder.url
            ),
            (Self.readmeCommand + ["--config", request], nil, folder.url),
            (Self.readmeCommand + ["--key-file", folder.file("absent.p8"), "--key-id", "ABCDEFGHIJ"], nil, folder.url),
            // Usage errors (exit 2) and input errors (exit 4).
            (["sign", "promotional-offer", "--product-id", "p"] + DemoKey.flags, nil, nil),
            (["sign", "promotional-offer", "--offer-identifier", "o"] + DemoKey.flags, nil, nil),
            (
                ["sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o", "--offer-id", "o"], nil,
                nil
            ),
            (["sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o", "--nonce", "x"], nil, nil),
            (
                ["sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o", "--issued-at", "-1"], nil,
                nil
            ),
            (
                ["sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o", "--format", "yaml"], nil,
                nil
            ),
            (
                ["sign", "legacy-promotional-offer", "--product-id", "p", "--offer-identifier", "o", "--nonce", "x"],
                nil, nil
            ),
            (["sign", "advanced-commerce", "--request", "-"] + DemoKey.flags, Data("{not json".utf8), nil),
            (["sign", "advanced-commerce", "--request", folder.file("absent.json")] + DemoKey.flags, nil, nil),
            (["sign", "advanced-commerce", "--request", "-", "--key-file", "-"], Data("{}".utf8), nil),
            (["sign", "no-such-request"], nil, nil),
            (["sign"], nil, nil),
            // Help and version.
            (["sign", "--help"], nil, nil),
            (["sign", "promotional-offer", "--help"], nil, nil),
            (["sign", "legacy-promotional-offer", "--help"], nil, nil),
            (["sign", "introductory-offer-eligibility", "--help"], nil, nil),
            (["sign", "advanced-commerce", "--help"], nil, nil),
            (["help", "sign", "promotional-offer"], nil, nil),
            (["--version"], nil, nil),
        ]
        for run in runs {
            let full = try await CLI.run(run.arguments, stdin: run.stdin, cwd: run.cwd)
            let signing = try await Self.run(run.arguments, stdin: run.stdin, cwd: run.cwd)
            #expect(signing.status == full.status, "exit status differs:\n\(signing)\n\(full)")
            #expect(signing.stderr == full.stderr, "stderr differs:\n\(signing)\n\(full)")
            #expect(
                Self.withoutSignatures(signing.stdout) == Self.withoutSignatures(full.stdout),
                "stdout differs:\n\(signing)\n\(full)")
        }
    }

    @Test(
        "a command that is not sign: exit 2, saying this build has the sign commands only and how to build all",
        arguments: [
            ["codes", "validate", "examples/campaign.json"], ["token", "server-api"], ["serve"], ["verify"],
            ["sgin", "promotional-offer"],
        ])
    func otherCommandsAreRefused(arguments: [String]) async throws {
        let result = try await Self.run(arguments + DemoKey.flags)
        Expect.failure(
            result, status: 2,
            mentioning: [
                "\"\(arguments[0])\" is not a command of this offerkit", "sign commands only",
                "--disable-default-traits", "promotional-offer", "swift build --product offerkit",
            ])
        #expect(!result.stderr.contains("demo key"), "\(result)")
    }

    @Test("its help lists the sign commands alone, and says how to build every command")
    func rootHelp() async throws {
        let help = try await Self.run(["--help"])
        #expect(help.status == 0, "\(help)")
        let text = DemoKeyRuleTests.squeezed(help.stdout)
        #expect(text.contains("sign commands only"), "\(help)")
        #expect(text.contains("swift build --product offerkit"), "\(help)")
        let subcommands = help.stdout.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        #expect(subcommands.contains("sign"), "\(help)")
        for other in ["codes", "token", "verify", "serve", "retention", "batch", "key"] {
            #expect(!subcommands.contains("  \(other) "), "\(other) listed: \(help)")
        }
    }

    @Test("a service configuration's members: the signing commands' list is the service's own")
    func serviceConfigurationMembers() {
        #expect(ConfigFile.serviceConfigurationMembers == ServiceConfiguration.members)
    }
}
