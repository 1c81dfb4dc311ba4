import Foundation
import OfferAppleVerification
import OfferJSON
import OfferRetention
import OfferSigning
import X509

/// The service's Get Retention Message endpoint: where it is served and the responder that
/// answers it (``RetentionResponder``, over the apps that have an App Apple ID).
public struct RetentionEndpoint: Sendable {
    /// The path Apple calls with `POST`.
    public let path: String
    /// Verifies, decides, signs and remembers.
    public let responder: RetentionResponder

    public init(path: String, responder: RetentionResponder) {
        self.path = path
        self.responder = responder
    }

    /// The endpoint of `configuration`: its roots read, every app with an App Apple ID served
    /// with its signer, the rules deciding unless `decider` is given.
    /// - Throws: ``ConfigurationError`` when a root certificate cannot be read or the responder
    ///   cannot be made.
    init(
        configuration: RetentionConfiguration, apps: [String: AppCredentials], registry: AppRegistry,
        decider: (any RetentionDecider)?, deciderTimeBudget: Duration, clock: SigningClock
    ) throws(ConfigurationError) {
        var roots: [Certificate] = []
        for file in configuration.rootCertificateFiles {
            do {
                let bytes = try BoundedInput.read(path: file, limit: 1 << 20, accepting: .regularFile)
                roots += try AppleRootCertificates.certificates(pem: String(decoding: bytes, as: UTF8.self))
            } catch let error as BoundedInput.Failure {
                throw .rootCertificateNotLoaded(file: file, reason: error.reason)
            } catch let error as AppleVerificationError {
                throw .rootCertificateNotLoaded(file: file, reason: error.errorDescription ?? "not PEM")
            } catch {
                throw .rootCertificateNotLoaded(file: file, reason: "unreadable")
            }
        }
        var served: [RetentionApp] = []
        for (bundleId, app) in apps.sorted(by: { $0.key < $1.key }) {
            guard let appAppleId = app.appAppleId, let signer = registry.signer(for: bundleId) else { continue }
            served.append(RetentionApp(appAppleId: appAppleId, signer: signer))
        }
        let settings = RetentionSettings(
            environments: Set(configuration.environments),
            rootCertificates: roots.isEmpty ? [AppleRootCertificates.appleRootCAG3] : roots,
            maxRequestAgeSeconds: configuration.maxRequestAgeSeconds, deciderTimeBudget: deciderTimeBudget)
        do {
            let responder = try RetentionResponder(
                apps: served, settings: settings, decider: decider ?? RuleDecider(configuration.rules), clock: clock)
            self.init(path: configuration.path, responder: responder)
        } catch {
            throw .retentionNotSetUp(reason: error.errorDescription ?? "\(error)")
        }
    }
}
