import SwiftASN1
import X509

/// The part of the trust decision that is Apple's own, for swift-certificates' `Verifier`: the
/// chain is leaf, intermediate, root; the intermediate carries Apple's Worldwide Developer
/// Relations extension and the leaf the App Store signing extension.
struct AppleChainPolicy: VerifierPolicy {
    /// Apple's intermediate (Worldwide Developer Relations) certificates carry this extension.
    static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// Apple's App Store signing (leaf) certificates carry this extension.
    static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "the chain has \(chain.count) certificates, expected 3")
        }
        guard Self.carries(chain[1], Self.intermediateOID) else {
            return .failsToMeetPolicy(reason: "the intermediate lacks extension \(Self.intermediateOID)")
        }
        guard Self.carries(chain[0], Self.leafOID) else {
            return .failsToMeetPolicy(reason: "the leaf lacks extension \(Self.leafOID)")
        }
        return .meetsPolicy
    }

    static func carries(_ certificate: Certificate, _ oid: ASN1ObjectIdentifier) -> Bool {
        certificate.extensions.contains { $0.oid == oid }
    }
}
