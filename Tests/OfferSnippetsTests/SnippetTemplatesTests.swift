import Foundation
import InteropSupport
import OfferServiceContract
import OfferSigning
import Testing

@testable import OfferSnippets

/// The snippet library: the embedded templates, the catalog, the literals and the rendering.
/// Running the rendered snippets against a live service is `offerkit snippet`'s test.
@Suite("Snippet templates")
struct SnippetTemplatesTests {
    /// The package's root folder (this file is Tests/OfferSnippetsTests/SnippetTemplatesTests.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let folder = packageRoot.appendingPathComponent("templates/snippets")

    @Test("the built-in templates equal the files in templates/snippets, byte for byte")
    func builtInsEqualFiles() throws {
        let hint = "run templates/embed-templates to regenerate Sources/OfferSnippets/BuiltIn/BuiltInSnippets+*.swift"
        var onDisk: [String: String] = [:]
        for language in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path) {
            let languageFolder = Self.folder.appendingPathComponent(language)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: languageFolder.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { continue }
            for file in try FileManager.default.contentsOfDirectory(atPath: languageFolder.path)
            where file.hasSuffix(".mustache") {
                onDisk[language + "/" + file] = try String(
                    contentsOf: languageFolder.appendingPathComponent(file), encoding: .utf8)
            }
        }
        #expect(Set(onDisk.keys) == Set(BuiltInSnippets.files.keys), "\(hint)")
        for (path, text) in onDisk {
            #expect(BuiltInSnippets.files[path] == text, "\(path) differs: \(hint)")
        }
    }

    @Test("the operations are the signing operations, each calling the service operation of its scope")
    func operations() throws {
        #expect(
            SigningOperation.allCases.map(\.rawValue) == [
                "promotional-offer", "legacy-promotional-offer", "introductory-offer-eligibility", "advanced-commerce",
                "server-api-token", "connect-api-token",
            ])
        #expect(SigningOperation.allCases.map(\.serviceOperation.path).allSatisfy { $0.hasPrefix("/v1/") })
        #expect(SigningOperation.allCases.allSatisfy { $0.serviceOperation.scope?.rawValue == $0.rawValue })
        #expect(SigningOperation(rawValue: "campaigns") == nil)
        // The path comes from the service, so the legacy snippet follows its path when it changes.
        let legacy = try SnippetTemplates.builtIn.render(
            language: "curl", operation: "legacy-promotional-offer", inputs: SnippetInputs())
        #expect(
            legacy.contains(
                "'http://127.0.0.1:8080" + SigningOperation.legacyPromotionalOffer.serviceOperation.path + "'"))
    }

    @Test("batch: the operations after the signing ones, calling POST /v1/signatures/batch, with no scope of its own")
    func batch() throws {
        #expect(SnippetOperation.allCases.map(\.rawValue) == SigningOperation.allCases.map(\.rawValue) + ["batch"])
        #expect(SnippetOperation(rawValue: "batch") == .batch)
        #expect(SnippetOperation(rawValue: "promotional-offer") == .signing(.promotionalOffer))
        #expect(SnippetOperation(rawValue: "promotional-offer-v1") == nil)
        #expect(SnippetOperation.batch.serviceOperation.path == "/v1/signatures/batch")
        #expect(SnippetOperation.batch.serviceOperation.id == "signBatch")
        let inputs = SnippetInputs(
            transactionId: "2000000123456789", appAccountToken: "E3B1C9A2-5F4D-4C8E-9A7B-1D2E3F4A5B6C")
        for language in ["curl", "python", "node", "java", "swift"] {
            let text = try SnippetTemplates.builtIn.render(language: language, operation: "batch", inputs: inputs)
            #expect(text.contains("/v1/signatures/batch"), "\(language)")
            for member in ["promotional-offer", "legacy-promotional-offer", "2000000123456789"] {
                #expect(text.contains(member), "\(language): \(member)")
            }
            #expect(text.contains("e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c"), "\(language): the app account token")
        }
    }

    @Test("every server language has every operation; the app languages have theirs")
    func catalog() throws {
        let catalog = try SnippetTemplates.builtIn.catalog()
        #expect(catalog.map(\.language) == SnippetLanguage.builtIn)
        for entry in catalog {
            switch entry.language.id {
            case "swift-storekit":
                #expect(
                    entry.operations.map(\.rawValue) == [
                        "promotional-offer", "legacy-promotional-offer", "introductory-offer-eligibility",
                    ])
            case "objc-storekit":
                #expect(entry.operations.map(\.rawValue) == ["legacy-promotional-offer"])
            default:
                #expect(entry.language.side == .server)
                #expect(entry.operations == SnippetOperation.allCases)
            }
        }
    }

    @Test("every snippet renders whole: no tag left, no trailing blanks, one final line break, the values in")
    func everySnippetRenders() throws {
        let inputs = SnippetInputs(
            baseURL: "https://offers.internal.example.com/", bundleId: "com.example.shop",
            productId: "com.example.shop.gold", offerIdentifier: "SPRING24")
        for entry in try SnippetTemplates.builtIn.catalog() {
            for operation in entry.operations {
                let text = try SnippetTemplates.builtIn.render(
                    language: entry.language.id, operation: operation.rawValue, inputs: inputs)
                let name = "\(entry.language.id)/\(operation.rawValue)"
                #expect(!text.contains("{{") && !text.contains("}}}"), "\(name): a tag is left")
                #expect(text.hasSuffix("\n") && !text.hasSuffix("\n\n"), "\(name): the ending")
                #expect(
                    !text.split(separator: "\n").contains { $0.hasSuffix(" ") || $0.hasSuffix("\t") },
                    "\(name): trailing blanks")
                #expect(text.contains("com.example.shop.gold") || operation.isToken, "\(name): no product")
                if entry.language.side == .server {
                    #expect(
                        text.contains("https://offers.internal.example.com") && !text.contains(".com//"),
                        "\(name): the base URL")
                    #expect(text.contains("OFFERKIT_API_KEY"), "\(name): the API key variable")
                    #expect(!text.contains("offerkit_"), "\(name): something that looks like a secret")
                }
            }
        }
    }

    @Test("each rendering of an Advanced Commerce request gets a fresh request reference ID")
    func freshReferenceId() throws {
        let render = {
            try SnippetTemplates.builtIn.render(
                language: "curl", operation: "advanced-commerce", inputs: SnippetInputs())
        }
        let pattern = /"requestReferenceId": "([0-9a-f-]{36})"/
        let first = try #require(try render().firstMatch(of: pattern)).1
        let second = try #require(try render().firstMatch(of: pattern)).1
        #expect(first != second)
        #expect(UUID(uuidString: String(first)) != nil)
    }

    static let awkward = [
        "plain", #"quote " and backslash \ and \u0041"#, "tab\tand return\r", "über 😀 𝄞", "'single' $HOME `id`",
        "\u{2028}line separator", "NUL\u{0}", "\u{7F}DEL",
    ]

    @Test("JSON literals decode to the text again, in ASCII only", arguments: awkward)
    func jsonLiteral(text: String) throws {
        let literal = SnippetLiteral.json(text)
        #expect(literal.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }, "\(literal)")
        let decoded = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)
        #expect(decoded as? String == text)
    }

    @Test(
        "shell words reach a program unchanged (sh, nothing expanded)", arguments: awkward.filter { !$0.contains("\0") }
    )
    func shellLiteral(text: String) async throws {
        let result = try await ExternalProcess.run("sh", ["-c", "printf %s " + SnippetLiteral.shell(text)])
        #expect(result.status == 0)
        #expect(result.stdout == text)
    }

    @Test(
        "here-document literals reach a program as the JSON of the text (sh, unquoted <<JSON, nothing expanded)",
        arguments: awkward.filter { !$0.contains("\0") })
    func heredocLiteral(text: String) async throws {
        let literal = SnippetLiteral.heredoc(text)
        #expect(!literal.contains("\\\\") && !literal.contains("$") && !literal.contains("`"), "\(literal)")
        let script = "HOME=/nowhere; cat <<JSON\n" + literal + "\nJSON\n"
        let result = try await ExternalProcess.run("sh", ["-c", script])
        #expect(result.status == 0)
        let decoded = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: .fragmentsAllowed)
        #expect(decoded as? String == text)
    }

    @Test("without a transaction ID or an app account token, no snippet holds one (nor the old demo ID)")
    func optionalInputsLeftOut() throws {
        for entry in try SnippetTemplates.builtIn.catalog() {
            for operation in entry.operations {
                let text = try SnippetTemplates.builtIn.render(
                    language: entry.language.id, operation: operation.rawValue, inputs: SnippetInputs())
                let name = "\(entry.language.id)/\(operation.rawValue)"
                #expect(!text.contains("2000000123456789"), "\(name): a made-up transaction ID")
                #expect(!text.contains(#""transactionId": """#), "\(name): an empty transaction ID")
                #expect(!text.contains(#""appAccountToken": """#), "\(name): an empty app account token")
                if entry.language.side == .server, operation == .signing(.introductoryOfferEligibility) {
                    #expect(text.contains("CUSTOMER_TRANSACTION_ID"), "\(name): where the transaction ID comes from")
                }
            }
        }
        let given = try SnippetTemplates.builtIn.render(
            language: "python", operation: "introductory-offer-eligibility",
            inputs: SnippetInputs(transactionId: "2000000123456789"))
        #expect(given.contains(#""2000000123456789""#) && !given.contains("CUSTOMER_TRANSACTION_ID"))
    }

    @Test("every server snippet retries a 429 (bounded), raises the problem's fields, and guards its example")
    func clientBehaviourInEveryServerLanguage() throws {
        let markers: [String: [String]] = [
            "curl": ["--retry 3 --retry-max-time 10", "--fail-with-body"],
            "python": ["MAX_RETRIES = 3", "MAX_RETRY_AFTER = 10", "self.field", "if __name__ == \"__main__\":"],
            "node": ["MAX_RETRIES = 3", "MAX_RETRY_AFTER = 10", "this.field", "if (isMain()) {"],
            "java": ["MAX_RETRIES = 3", "MAX_RETRY_AFTER = 10", "final String field;", "public static void main"],
            "swift": ["maxRetries = 3", "maxRetryAfter = 10", "var field: String?"],
        ]
        for entry in try SnippetTemplates.builtIn.catalog() where entry.language.side == .server {
            let expected = try #require(markers[entry.language.id], "\(entry.language.id): a server language untested")
            for operation in entry.operations {
                let text = try SnippetTemplates.builtIn.render(
                    language: entry.language.id, operation: operation.rawValue, inputs: SnippetInputs())
                for marker in expected {
                    #expect(text.contains(marker), "\(entry.language.id)/\(operation.rawValue): no \(marker)")
                }
            }
        }
    }

    @Test("Swift literals escape quotes, backslashes and controls, and keep other text")
    func swiftLiteral() {
        #expect(SnippetLiteral.swift(#"a "b" \c"#) == #""a \"b\" \\c""#)
        #expect(SnippetLiteral.swift("t\tn\nr\r") == #""t\tn\nr\r""#)
        #expect(SnippetLiteral.swift("NUL\u{0}DEL\u{7F}\u{2028}") == #""NUL\u{0}DEL\u{7f}\u{2028}""#)
        #expect(SnippetLiteral.swift("über 😀") == "\"über 😀\"")
    }

    @Test(
        "base URLs: http or https with a host; the trailing slash goes",
        arguments: [
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"), ("https://h.example.com/", "https://h.example.com"),
            ("https://h.example.com/offerkit//", "https://h.example.com/offerkit"),
            ("http://[::1]:8080", "http://[::1]:8080"), ("https://h/a%20b/$x", "https://h/a%20b/$x"),
        ])
    func baseURLs(input: String, expected: String) throws {
        #expect(try SnippetContext.checkedBaseURL(input) == expected)
    }

    @Test(
        "base URLs that cannot go into a snippet are refused",
        arguments: [
            "", "127.0.0.1:8080", "ftp://h", "http://", "https://user:pw@h", "http://h/?q", "http://h/#f",
            "http://h /x", "http://h\n", "http://h/{a,b}", "http://h/[a", "http://h/%zz", "http://h/ü",
            #"http://h/a"b"#, #"http://h/a\b"#, "http://h/a|b", "http://h/a^b",
        ])
    func badBaseURLs(input: String) {
        #expect(throws: SnippetError.self) { try SnippetContext.checkedBaseURL(input) }
    }

    @Test("errors name what was asked and what exists")
    func errors() {
        #expect(throws: SnippetError.unknownLanguage("perl", known: SnippetLanguage.builtIn.map(\.id))) {
            try SnippetTemplates.builtIn.render(language: "perl", operation: "promotional-offer", inputs: .init())
        }
        #expect(
            throws: SnippetError.unknownOperation(
                "promotional-offer", language: "objc-storekit", known: ["legacy-promotional-offer"])
        ) {
            try SnippetTemplates.builtIn.render(
                language: "objc-storekit", operation: "promotional-offer", inputs: .init())
        }
        let message = SnippetError.unknownLanguage("a\u{1}b", known: ["curl"]).localizedDescription
        #expect(message == #"no snippets for the language "a?b"; expected one of: curl"#)
    }
}

extension SnippetOperation {
    fileprivate var isToken: Bool { self == .signing(.serverAPIToken) || self == .signing(.connectAPIToken) }
}
