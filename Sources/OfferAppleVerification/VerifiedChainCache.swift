import Foundation

/// The certificate chains one ``AppleSignedDataVerifier`` has already verified, each with the
/// dates at which every certificate of the chain it built (leaf, intermediate, trusted root) is
/// valid, so that the next JWS signed with the same `x5c` certificates, at a date within them,
/// skips building and checking the path again (two signature verifications, one of them on the
/// root's P-384 key).
///
/// Only successes are kept, keyed by the exact DER bytes of the leaf and the intermediate: the
/// path the verifier builds depends on nothing else but its roots (its own) and the date, whose
/// checks (RFC 5280: `notBefore <= date <= notAfter` for each certificate) the window repeats. Any
/// other chain, or a known chain at a date outside its window, is verified in full as before, so
/// every refusal is the one a verifier without the cache gives.
final class VerifiedChainCache: @unchecked Sendable {
    /// The `x5c` certificates of a verified chain.
    struct Key: Hashable, Sendable {
        let leaf: [UInt8]
        let intermediate: [UInt8]
    }

    /// How many chains are kept; when full, all are forgotten (Apple signs with few certificates,
    /// renewed yearly).
    static let capacity = 64

    private let lock = NSLock()
    private var windows: [Key: ClosedRange<Date>] = [:]

    /// Whether the chain of `key` was verified and every certificate of it is valid at `date`.
    func accepts(_ key: Key, at date: Date) -> Bool {
        lock.withLock { windows[key]?.contains(date) ?? false }
    }

    /// Keeps a chain just verified, with the dates its certificates are all valid.
    func remember(_ key: Key, validFrom start: Date, until end: Date) {
        guard start <= end else { return }
        lock.withLock {
            if windows.count >= Self.capacity, windows[key] == nil { windows.removeAll(keepingCapacity: true) }
            windows[key] = start...end
        }
    }

    /// How many chains are kept (for tests).
    var count: Int { lock.withLock { windows.count } }
}
