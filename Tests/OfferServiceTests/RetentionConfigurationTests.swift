import AppleTestChain
import Foundation
import OfferAppleVerification
import OfferRetentionEndpoint
import Testing

@testable import OfferService

@Suite("Configuration: the retention section and App Apple IDs")
struct RetentionConfigurationTests {
    static let issuer = ServiceFixtures.issuerId
    static let demo =
        #""com.example.offerkit.demo": {"keyFile": "k.p8", "keyId": "DEMOKEY123", "issuerId": "\#(issuer)", "appAppleId": 1234567890}"#
    static let other =
        #""com.example.offerkit.other": {"keyFile": "k.p8", "keyId": "DEMOKEY123", "issuerId": "\#(issuer)"}"#

    static func load(apps: String = demo, retention: String?) throws -> ServiceConfiguration {
        let folder = try TemporaryFolder()
        let section = retention.map { #", "retention": \#($0)"# } ?? ""
        let path = try folder.write("service.json", #"{"apps": {\#(apps)}\#(section)}"#)
        return try ServiceConfiguration.load(path: path, environment: [:])
    }

    @Test("a retention section reads: defaults, rules by app, root files against the configuration's folder")
    func reads() throws {
        let configuration = try Self.load(
            retention: #"""
                {"environments": ["Sandbox", "Production"],
                 "apps": {"com.example.offerkit.demo": \#(RetentionExample.rulesJSON)}}
                """#)
        let retention = try #require(configuration.retention)
        #expect(retention.path == "/v1/retention/realtime" && retention.maxRequestAgeSeconds == 300)
        #expect(retention.environments == [.sandbox, .production])
        #expect(retention.rootCertificateFiles.isEmpty)
        #expect(retention.rules["com.example.offerkit.demo"]?.rules.count == 5)
        #expect(configuration.apps["com.example.offerkit.demo"]?.appAppleId == 1_234_567_890)
        #expect(try Self.load(retention: nil).retention == nil)
        // Roots of your own, for the test environment.
        let testing = try #require(
            try Self.load(retention: #"{"environments": ["Sandbox"], "rootCertificates": ["roots/test.pem"]}"#)
                .retention)
        #expect(testing.environments == [.sandbox])
        #expect(testing.rootCertificateFiles.count == 1 && testing.rootCertificateFiles[0].hasSuffix("/roots/test.pem"))
    }

    @Test(
        "roots of your own with Production stop the start, naming the environment",
        arguments: [
            (#"["Sandbox", "Production"]"#, "retention.environments[1]"),
            (#"["Production"]"#, "retention.environments[0]"),
            (#"["Production", "Sandbox"]"#, "retention.environments[0]"),
        ])
    func testRootsNeverAnswerProduction(environments: String, field: String) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try Self.load(retention: #"{"environments": \#(environments), "rootCertificates": ["roots/test.pem"]}"#)
        }
        let description = try #require(error.errorDescription)
        #expect(description.contains("service.json: \(field): expected only test environments"), "\(description)")
        #expect(description.contains("retention.rootCertificates") && description.contains("found Production"))
    }

    @Test("a configuration made in code with roots of its own and Production is refused too")
    func testRootsNeverAnswerProductionInCode() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try RetentionServiceFixtures.service(environments: [.sandbox, .production])
        }
        #expect(error.errorDescription?.contains("retention.environments[1]: expected only test environments") == true)
        // Without roots of its own, Production is served, under Apple's root alone.
        var configuration = RetentionServiceFixtures.configuration(environments: [.sandbox, .production])
        configuration.retention?.rootCertificateFiles = []
        let service = try OfferService(configuration: configuration)
        let retention = try #require(service.state.retention)
        #expect(retention.responder.settings.environments == [.sandbox, .production])
        #expect(retention.trustedRoots == [RetentionEndpoint.appleRootName])
        #expect(retention.responder.settings.rootCertificates == [AppleRootCertificates.appleRootCAG3])
    }

    @Test("roots of your own are trusted besides Apple's, and named by file and SHA-256 fingerprint")
    func trustedRootsAreNamed() throws {
        let folder = try TemporaryFolder()
        // Apple Root CA - G3 itself as a root file: its SHA-256 fingerprint is the one Apple publishes.
        let apple = try folder.write("apple.pem", AppleRootCertificates.appleRootCAG3PEM)
        var configuration = RetentionServiceFixtures.configuration()
        configuration.retention?.rootCertificateFiles = [apple, RetentionServiceFixtures.rootFile]
        let retention = try #require(try OfferService(configuration: configuration).state.retention)
        let published =
            "63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79"
        #expect(retention.trustedRoots.count == 3)
        #expect(retention.trustedRoots.first == "Apple Root CA - G3")
        #expect(retention.trustedRoots.dropFirst().first == "\(apple) (SHA-256 \(published))")
        let test = retention.trustedRoots.last ?? ""
        let prefix = "\(RetentionServiceFixtures.rootFile) (SHA-256 "
        #expect(test.hasPrefix(prefix) && test.hasSuffix(")"), "\(test)")
        let bytes = test.dropFirst(prefix.count).dropLast().split(separator: ":")
        #expect(bytes.count == 32 && bytes.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }, "\(test)")
        #expect(!test.dropFirst(prefix.count).contains { $0.isLowercase }, "\(test)")
        #expect(retention.responder.settings.rootCertificates.first == AppleRootCertificates.appleRootCAG3)
        #expect(retention.responder.settings.rootCertificates.count == 3)
    }

    @Test(
        "each mistake names its field",
        arguments: [
            (#"{"environments": ["Sandbox"], "path": "v1/retention"}"#, "retention.path: expected a path"),
            (#"{"environments": ["Sandbox"], "path": "/healthz"}"#, "retention.path: expected a path of its own"),
            (#"{"environments": ["Sandbox"], "path": "/a/../b"}"#, "retention.path: expected a path"),
            (#"{"environments": []}"#, #"retention.environments: expected a list of "Sandbox" and/or "Production""#),
            (#"{"environments": ["Sandbox", "Sandbox"]}"#, "retention.environments[1]: expected"),
            (#"{"environments": ["Xcode"]}"#, "retention.environments[0]: expected"),
            (#"{"path": "/x"}"#, "retention.environments: expected"),
            (
                #"{"environments": ["Sandbox"], "maxRequestAgeSeconds": 5}"#,
                "retention.maxRequestAgeSeconds: expected an integer from 10 to 3600"
            ),
            (
                #"{"environments": ["Sandbox"], "rootCertificates": []}"#,
                "retention.rootCertificates: expected a list of 1 to 16 PEM files"
            ),
            (
                #"{"environments": ["Sandbox", "Production"], "rootCertificates": ["test.pem"]}"#,
                "retention.environments[1]: expected only test environments (Sandbox)"
            ),
            (#"{"environments": ["Sandbox"], "roots": []}"#, "retention.roots: expected one of path, environments"),
            (
                #"{"environments": ["Sandbox"], "apps": {"com.example.unknown": []}}"#,
                #"retention.apps["com.example.unknown"]: expected an app of "apps""#
            ),
            (
                #"{"environments": ["Sandbox"], "apps": {"com.example.offerkit.other": []}}"#,
                #"retention.apps["com.example.offerkit.other"]: expected an app with "appAppleId""#
            ),
            (
                #"{"environments": ["Sandbox"], "apps": {"com.example.offerkit.demo": [{"message": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}}, {"message": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}}, {"promotionalOffer": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "productId": "p", "offerIdentifier": "o", "signature": "v3"}}]}}"#,
                #"retention.apps["com.example.offerkit.demo"][2].promotionalOffer.signature: expected "v1" or "v2" (in any case), found "v3""#
            ),
        ])
    func mistakes(retention: String, message: String) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try Self.load(apps: Self.demo + ", " + Self.other, retention: retention)
        }
        let description = try #require(error.errorDescription)
        #expect(description.contains("service.json: " + message), "\(description)")
    }

    @Test("App Apple IDs: integers from 1 to 2^53, each app its own; an endpoint needs at least one")
    func appAppleIds() throws {
        let twin =
            #""com.example.offerkit.other": {"keyFile": "k.p8", "keyId": "DEMOKEY123", "issuerId": "\#(Self.issuer)", "appAppleId": 1234567890}"#
        let duplicate = try #require(throws: ConfigurationError.self) {
            try Self.load(apps: Self.demo + ", " + twin, retention: nil)
        }
        #expect(
            duplicate.errorDescription?.contains(
                #"apps["com.example.offerkit.other"].appAppleId: expected an App Apple ID of its own (found 1234567890, which com.example.offerkit.demo has too)"#
            )
                == true, "\(duplicate)")
        for bad in ["0", "-1", "9007199254740993", #""1234567890""#, "1.5"] {
            let entry = #""com.example.app": {"appAppleId": \#(bad)}"#
            let error = try #require(throws: ConfigurationError.self) { try Self.load(apps: entry, retention: nil) }
            #expect(error.errorDescription?.contains("appAppleId") == true, "\(bad): \(error)")
        }
        let none = try #require(throws: ConfigurationError.self) {
            try Self.load(apps: Self.other, retention: #"{"environments": ["Sandbox"]}"#)
        }
        #expect(none.errorDescription?.contains("retention: expected at least one app with \"appAppleId\"") == true)
    }

    @Test("a root certificate file that cannot be read stops the service, naming the file")
    func unreadableRoot() throws {
        var configuration = RetentionServiceFixtures.configuration()
        configuration.retention?.rootCertificateFiles = ["/nonexistent/root.pem"]
        let error = try #require(throws: ConfigurationError.self) { try OfferService(configuration: configuration) }
        #expect(error.errorDescription?.contains("/nonexistent/root.pem (retention.rootCertificates)") == true)
        let folder = try TemporaryFolder()
        configuration.retention?.rootCertificateFiles = [
            try folder.write("key.pem", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        ]
        #expect(throws: ConfigurationError.self) { try OfferService(configuration: configuration) }
    }

    @Test("the served apps are those with an App Apple ID; the routed operations include the endpoint at its path")
    func servedApps() throws {
        let service = try RetentionServiceFixtures.service(path: "/apple/retention")
        let retention = try #require(service.state.retention)
        #expect(retention.responder.apps.map(\.bundleId) == [ServiceFixtures.app, ServiceFixtures.otherApp])
        #expect(
            retention.responder.apps.map(\.appAppleId) == [
                RetentionExample.appAppleId, RetentionExample.otherAppAppleId,
            ])
        #expect(service.routedOperations.first { $0.id == "getRetentionMessage" }?.path == "/apple/retention")
        #expect(service.routedOperations.count == OfferService.operations.filter { !$0.requiresLedger }.count)
    }
}
