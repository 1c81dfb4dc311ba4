import SwiftASN1
import X509

/// The part of the trust decision that swift-certificates' `RFC5280Policy` leaves out, for its
/// `Verifier`: the chain is leaf, intermediate, root; the intermediate carries Apple's Worldwide
/// Developer Relations extension and the leaf the App Store signing extension; and the key usage
/// rules of RFC 5280 §4.2.1.3 hold.
///
/// Key usage: `RFC5280Policy` lists keyUsage among the critical extensions it handles but does not
/// check it (its source says so: CAs have set it poorly). Apple's verifier does: its Python
/// library builds the chain with OpenSSL (`X509StoreContext` with `X509_STRICT`), which refuses a
/// certificate authority (intermediate or root) without keyUsage or without `keyCertSign`, and a
/// leaf that asserts `keyCertSign` (critical or not). OfferKit refuses the same, and one thing
/// more: a leaf whose keyUsage lacks `digitalSignature`, since the leaf's key signs the JWS
/// (OpenSSL, with no purpose set, does not check a leaf's key usage, so Apple's library accepts
/// such a leaf). A leaf without keyUsage is accepted, as RFC 5280 and Apple's library accept it.
/// The App Store's own certificates carry critical keyUsage: `digitalSignature` on the leaf,
/// `keyCertSign` and `cRLSign` on the intermediate and Apple Root CA – G3.
struct AppleChainPolicy: VerifierPolicy {
    /// Apple's intermediate (Worldwide Developer Relations) certificates carry this extension.
    static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// Apple's App Store signing (leaf) certificates carry this extension.
    static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.keyUsage]

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
        if let problem = Self.keyUsageProblem(
            leaf: chain[0], authorities: [("intermediate", chain[1]), ("root", chain[2])])
        {
            return .failsToMeetPolicy(reason: problem)
        }
        return .meetsPolicy
    }

    static func carries(_ certificate: Certificate, _ oid: ASN1ObjectIdentifier) -> Bool {
        certificate.extensions.contains { $0.oid == oid }
    }

    /// What breaks RFC 5280 §4.2.1.3 in a chain (see the type's description), or `nil`. Each
    /// message fits the 64 characters a Verifier's reason is clipped to, but the leaf's.
    static func keyUsageProblem(leaf: Certificate, authorities: [(name: String, certificate: Certificate)]) -> String? {
        let rule = "(RFC 5280 §4.2.1.3)"
        switch keyUsage(of: leaf) {
        case .failure(let reason): return "the leaf's keyUsage \(reason)"
        case .success(let usage?):
            if !usage.digitalSignature {
                return "the leaf's keyUsage lacks digitalSignature: its key may not sign the JWS \(rule)"
            }
            if usage.keyCertSign {
                return "the leaf's keyUsage asserts keyCertSign, which only a CA may \(rule)"
            }
        case .success(nil): break
        }
        for (name, certificate) in authorities {
            switch keyUsage(of: certificate) {
            case .failure(let reason): return "the \(name)'s keyUsage \(reason)"
            case .success(nil): return "the \(name) has no keyUsage, so no keyCertSign \(rule)"
            case .success(let usage?) where !usage.keyCertSign:
                return "the \(name)'s keyUsage lacks keyCertSign \(rule)"
            case .success: continue
            }
        }
        return nil
    }

    /// A certificate's keyUsage extension (`nil` when it has none), or why it cannot be read.
    private static func keyUsage(of certificate: Certificate) -> Result<KeyUsage?, KeyUsageUnreadable> {
        do {
            return .success(try certificate.extensions.keyUsage)
        } catch {
            return .failure(KeyUsageUnreadable())
        }
    }

    private struct KeyUsageUnreadable: Error, CustomStringConvertible {
        var description: String { "cannot be read (not DER key usage bits)" }
    }
}
