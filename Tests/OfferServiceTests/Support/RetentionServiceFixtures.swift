import AppleTestChain
import Foundation
import OfferAppleVerification
import OfferRetentionEndpoint
import OfferService
import OfferSigning

/// The demo service with a Get Retention Message endpoint: both apps with an App Apple ID, the
/// example rules for the demo app, requests signed on the Swift-made test chain.
enum RetentionServiceFixtures {
    static let path = RetentionConfiguration.defaultPath

    /// The test chain's root, in a file for `rootCertificates` (one per test process).
    static let rootFile: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offerkit-retention-root-\(ProcessInfo.processInfo.processIdentifier).pem")
        do {
            try Data(AppleTestChain.shared.rootPEM.utf8).write(to: url)
        } catch {
            fatalError("the test root cannot be written: \(error)")
        }
        return url.path
    }()

    static let rules: RetentionRules = {
        do {
            return try RetentionRules(json: Array(RetentionExample.rulesJSON.utf8))
        } catch {
            fatalError("the example rules do not load: \(error.localizedDescription)")
        }
    }()

    static func configuration(
        environments: [AppleEnvironment] = [.sandbox], path: String = path
    ) -> ServiceConfiguration {
        var configuration = ServiceFixtures.configuration
        configuration.apps[ServiceFixtures.app]?.appAppleId = RetentionExample.appAppleId
        configuration.apps[ServiceFixtures.otherApp]?.appAppleId = RetentionExample.otherAppAppleId
        configuration.retention = RetentionConfiguration(
            path: path, environments: environments, rootCertificateFiles: [rootFile],
            rules: [ServiceFixtures.app: rules])
        return configuration
    }

    /// A service with the retention section; a decider gets a minute (in a full run, tests that
    /// block Swift's cooperative pool can hold the decider's task back past the 500 ms default, and
    /// these tests are not about the budget).
    static func service(
        environments: [AppleEnvironment] = [.sandbox], path: String = path, decider: (any RetentionDecider)? = nil,
        metrics: ServiceMetrics = ServiceMetrics()
    ) throws -> OfferService {
        try OfferService(
            configuration: configuration(environments: environments, path: path), metrics: metrics,
            retentionDecider: decider, retentionDeciderTimeBudget: .seconds(60))
    }

    /// A request body signed now on the test chain.
    static func body(
        productId: String = "com.example.offerkit.monthly", userLocale: String = "en-US",
        appAppleId: Int64 = RetentionExample.appAppleId, environment: String = "Sandbox",
        requestIdentifier: UUID = UUID(), signedDate: Int64? = nil, variant: AppleTestChain.Variant = .good
    ) throws -> String {
        let payload = RealtimeRequestPayload(
            appAppleId: appAppleId, productId: productId, userLocale: userLocale,
            requestIdentifier: requestIdentifier, environment: environment,
            signedDate: signedDate ?? Int64(Date().timeIntervalSince1970 * 1000))
        return String(
            decoding: AppleTestChain.body(try AppleTestChain.shared.sign(payload.json, variant: variant)), as: UTF8.self
        )
    }
}
