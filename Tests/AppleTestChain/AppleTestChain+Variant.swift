extension AppleTestChain {
    /// How a signed JWS is broken: each must be refused by a verifier (and by Apple's own).
    public enum Variant: String, CaseIterable, Sendable {
        /// Not broken: as the App Store signs.
        case good
        /// The intermediate carries another extension instead of 1.2.840.113635.100.6.2.1.
        case wrongIntermediateOID = "wrong-intermediate-oid"
        /// The intermediate carries no Apple extension.
        case intermediateWithoutOID = "intermediate-without-oid"
        /// The leaf carries another extension instead of 1.2.840.113635.100.6.11.1.
        case wrongLeafOID = "wrong-leaf-oid"
        /// The leaf carries no Apple extension.
        case leafWithoutOID = "leaf-without-oid"
        /// The leaf expired in 2021, before any signedDate the tests use.
        case leafExpiredAtSignedDate = "leaf-expired-at-signed-date"
        /// The leaf is valid only from 2100.
        case leafNotYetValidAtSignedDate = "leaf-not-yet-valid-at-signed-date"
        /// The intermediate expired in 2021.
        case intermediateExpiredAtSignedDate = "intermediate-expired-at-signed-date"
        /// A whole chain under another root.
        case wrongRoot = "wrong-root"
        /// Another root's chain, with the trusted root as `x5c[2]`.
        case wrongRootClaimingTestRoot = "wrong-root-claiming-test-root"
        /// The leaf with an intermediate that did not issue it.
        case leafFromAnotherIntermediate = "leaf-from-another-intermediate"
        /// Intermediate first, then the leaf.
        case swappedOrder = "swapped-order"
        /// Only the leaf.
        case chainOf1 = "chain-of-1"
        /// Leaf and intermediate, no root.
        case chainOf2 = "chain-of-2"
        /// The root twice.
        case chainOf4 = "chain-of-4"
        /// One bit of the signature flipped.
        case badSignature = "bad-signature"
        /// The payload changed after it was signed.
        case payloadChangedAfterSigning = "payload-changed-after-signing"
        /// Signed by a key that is not the leaf's.
        case signedByAnotherKey = "signed-by-another-key"
        /// The header says `ES384`.
        case algorithmES384 = "alg-ES384"
        /// The header says `none`.
        case algorithmNone = "alg-none"

        /// Every variant but ``good``.
        public static var broken: [Variant] { allCases.filter { $0 != .good } }
    }
}
