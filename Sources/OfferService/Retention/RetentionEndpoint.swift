import Crypto
import Foundation
import OfferAppleVerification
import OfferJSON
import OfferRetentionEndpoint
import OfferSigning
import SwiftASN1
import X509

/// The service's Get Retention Message endpoint: where it is served and the responder that
/// answers it (`RetentionResponder`, over the apps that have an App Apple ID).
public struct RetentionEndpoint: Sendable {
    /// The path Apple calls with `POST`.
    public let path: String
    /// Verifies, decides, signs and remembers.
    public let responder: RetentionResponder
    /// The roots a request may chain to, for the start-up line: `Apple Root CA - G3`, then each root
    /// of your own as its file and SHA-256 fingerprint (`… (SHA-256 3F:2A:…)`, as `openssl x509
    /// -fingerprint -sha256` writes it).
    public let trustedRoots: [String]

    public init(path: String, responder: RetentionResponder, trustedRoots: [String]) {
        self.path = path
        self.responder = responder
        self.trustedRoots = trustedRoots
    }

    /// The name of Apple's root in ``trustedRoots``.
    public static let appleRootName = "Apple Root CA - G3"

    /// The endpoint of `configuration`: its roots read (Apple Root CA – G3, and roots of your own for
    /// the test environments only), every app with an App Apple ID served with its signer, the rules
    /// deciding unless `decider` is given, each promotional offer a decision names checked with
    /// `offerCheck` when given (the service's code ledger).
    /// - Throws: ``ConfigurationError`` when roots of your own come with Production
    ///   (``RetentionConfiguration/checkTrust(source:)``), a root certificate cannot be read, or the
    ///   responder cannot be made.
    init(
        configuration: RetentionConfiguration, apps: [String: AppCredentials], registry: AppRegistry,
        decider: (any RetentionDecider)?, deciderTimeBudget: Duration, clock: SigningClock,
        offerCheck: RetentionOfferCheck? = nil
    ) throws(ConfigurationError) {
        // Also for a configuration made in code: roots of your own never answer production.
        try configuration.checkTrust(source: "RetentionConfiguration")
        var roots = [AppleRootCertificates.appleRootCAG3]
        var trusted = [Self.appleRootName]
        for file in configuration.rootCertificateFiles {
            do {
                let bytes = try BoundedInput.read(path: file, limit: 1 << 20, accepting: .regularFile)
                let certificates = try AppleRootCertificates.certificates(pem: String(decoding: bytes, as: UTF8.self))
                roots += certificates
                trusted += try certificates.map { "\(file) (SHA-256 \(try Self.fingerprint($0)))" }
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
            environments: Set(configuration.environments), rootCertificates: roots,
            maxRequestAgeSeconds: configuration.maxRequestAgeSeconds, deciderTimeBudget: deciderTimeBudget)
        do {
            let responder = try RetentionResponder(
                apps: served, settings: settings, decider: decider ?? RuleDecider(configuration.rules), clock: clock,
                offerCheck: offerCheck)
            self.init(path: configuration.path, responder: responder, trustedRoots: trusted)
        } catch {
            throw .retentionNotSetUp(reason: error.errorDescription ?? "\(error)")
        }
    }

    /// The SHA-256 fingerprint of `certificate`'s DER encoding: upper-case hexadecimal bytes joined
    /// by colons.
    static func fingerprint(_ certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return SHA256.hash(data: serializer.serializedBytes).map { Hex.string([$0], uppercase: true) }.joined(
            separator: ":")
    }
}
