import Foundation
import Testing

@testable import CLITestSupport

/// When the demo key is used: with no credentials at all, from a folder that holds
/// keys-example/config.json, and nowhere else. The error elsewhere and docs/signing.md (Credentials) say the
/// same rule.
@Suite("the demo key: exactly when docs/signing.md says")
struct DemoKeyRuleTests {
    static let rule =
        "the demo key is used only when no credential flag or OFFERKIT_* variable is given at all and the current "
        + "folder contains keys-example/config.json"
    static let sign = ["sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o"]

    static func squeezed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    @Test("elsewhere, with no credentials: exit 3, naming the rule and how to give a key")
    func elsewhereNoKey() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let result = try await CLI.run(Self.sign, cwd: folder.url)
        Expect.failure(result, status: 3, mentioning: ["no key given", "--key-file", "--config", Self.rule])
    }

    @Test("from a folder holding keys-example/config.json, with no credentials: the demo key, with a warning")
    func folderWithKeysExample() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("keys-example"), withIntermediateDirectories: false)
        for name in ["config.json", "SubscriptionKey_DEMOKEY123.p8"] {
            try FileManager.default.copyItem(
                at: DemoKey.folder.appendingPathComponent(name),
                to: folder.url.appendingPathComponent("keys-example/\(name)"))
        }
        let result = try await CLI.run(Self.sign, cwd: folder.url)
        Expect.success(result)
        #expect(result.stderr.contains("using the demo key"), "\(result)")
        // Any credential at all turns the fallback off.
        let partial = try await CLI.run(Self.sign + ["--bundle-id", DemoKey.bundleId], cwd: folder.url)
        Expect.failure(partial, status: 3, mentioning: ["no key given"])
    }

    @Test("docs/signing.md states the same rule")
    func readmeSaysTheSame() throws {
        let guide = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("docs/signing.md"), encoding: .utf8)
        #expect(
            Self.squeezed(guide).lowercased().contains(Self.rule.lowercased()),
            "docs/signing.md should say: \(Self.rule)")
    }
}
