import Foundation
import OfferJSON
import Testing

@testable import OfferService

/// A service configuration reports every problem at once, as campaign validation does, and a CLI
/// credentials file given as a service configuration is named as such.
@Suite("Configuration: every problem at once")
struct ConfigurationProblemsTests {
    typealias C = ConfigurationTests

    @Test("every problem of the file is listed, each with its field, in the order the file is read")
    func everyProblem() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "service.json",
            #"""
            {"apps": {\#(C.app(keyId: "lower-case")), \#(C.app("com.example.other", issuerId: "x"))},
             "apiKeys": [\#(C.apiKey(sha256: String(repeating: "zz", count: 32))), \#(C.apiKey("b", scopes: #"["promo"]"#))],
             "limits": {"burst": 0, "backlog": 70000},
             "ledger": "mysql://db/offers",
             "extra": true}
            """#)
        let error = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(path: path, environment: [:])
        }
        guard case .invalidFields(let problems) = error else {
            Issue.record("expected every problem, got \(error)")
            return
        }
        #expect(
            problems.map(\.field) == [
                #"apps["com.example.app"].keyId"#, #"apps["com.example.other"].issuerId"#, "limits.burst",
                "limits.backlog", "extra", "apiKeys[0].sha256", "apiKeys[1].scopes[0]", "ledger",
            ], "\(problems)")
        #expect(problems.allSatisfy { $0.source == path })
        let message = try #require(error.errorDescription)
        #expect(message.hasPrefix("the service configuration has 8 problems:\n"), "\(message)")
        for problem in problems { #expect(message.contains("\n  \(path): \(problem.field): expected"), "\(message)") }
        #expect(message.contains(#"(found "lower-case")"#) && message.contains(#"found "promo""#), "\(message)")
    }

    @Test("problems of OFFERKIT_API_KEYS are listed with those of the file, each naming its source")
    func fileAndVariable() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("service.json", #"{"apps": {\#(C.app())}, "limits": {"burst": 0}}"#)
        let variable = ServiceConfiguration.apiKeysVariable
        let error = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(
                path: path, environment: [variable: #"[{"name": "x", "scopes": ["*"], "bundleIds": ["*"]}, 3]"#])
        }
        #expect(
            error.problems.map { "\($0.source) \($0.field)" } == [
                "\(path) limits.burst", "\(variable) [0].sha256", "\(variable) [1]",
            ], "\(error.problems)")
    }

    @Test("one problem is still that problem's own error")
    func oneProblem() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("service.json", #"{"apps": {\#(C.app())}, "limits": {"burst": 0}}"#)
        let error = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(path: path, environment: [:])
        }
        guard case .invalidField(path, "limits.burst", _) = error else {
            Issue.record("expected the one problem, got \(error)")
            return
        }
    }

    @Test("the retention section reports each of its problems too")
    func retentionProblems() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try RetentionConfigurationTests.load(
                retention: #"{"environments": ["Sandbox", "Xcode"], "maxRequestAgeSeconds": 5, "roots": []}"#)
        }
        #expect(
            error.problems.map(\.field) == [
                "retention.roots", "retention.environments[1]", "retention.maxRequestAgeSeconds",
            ], "\(error.problems)")
    }

    @Test("the CLI's credentials file given as a service configuration is named, with what to do")
    func credentialsFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("config.json", #"{\#(C.app()), \#(C.app("com.example.other"))}"#)
        let error = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(path: path, environment: [:])
        }
        guard case .invalidField(path, "(top level)", let expected) = error else {
            Issue.record("expected one problem at the top level, got \(error)")
            return
        }
        #expect(expected.contains("--config") && expected.contains("keys-example/config.json"), "\(expected)")
        #expect(expected.contains(#"under "apps""#) && expected.contains("keys-example/service.json"), "\(expected)")
    }

    @Test("the schema validator lists every violation, each field once, in document order")
    func everyViolation() {
        let schema = JSONSchema.object([
            .init("a", .integer(minimum: 1)), .init("b", .enumeration(["X", "Y"])),
            .init("c", .object([.init("d", .boolean())])),
        ])
        let value = JSONValue.object([
            ("a", .integer(0)), ("b", .string("z")), ("c", .object([("d", .string("no")), ("e", .null)])),
            ("f", .null),
        ])
        let violations = SchemaValidator().violations(value, against: schema)
        #expect(violations.map(\.field) == ["a", "b", "c.d", "c.e", "f"], "\(violations)")
        #expect(violations[1].found == #""z""#)
        #expect(
            SchemaValidator().violations(
                .object([("a", .integer(1)), ("b", .string("y")), ("c", .object([("d", .bool(true))]))]),
                against: schema
            ).isEmpty)
    }
}
