import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The answers given recently, by `requestIdentifier`, so that a retried request gets the same
/// bytes (the same nonce and signature) instead of a second offer.
///
/// Bounded twice: an entry lives until its request is stale (its `signedDate` plus
/// `maxRequestAgeSeconds`: a retry after that is refused anyway, and one before it finds the
/// answer, also when Apple's clock is ahead of this one) and there are at most ``capacity``. The
/// oldest inserted go first; expired entries are dropped from the front of the insertion order
/// (expiry follows it closely: `signedDate` is at most 60 s ahead and `maxRequestAgeSeconds`
/// behind the time of insertion). One lock guards a dictionary and a queue: each call is a lookup
/// or an insertion and a few removals, no hop between tasks.
final class RetentionReplayCache: Sendable {
    /// A remembered answer, and the SHA-256 of the payload it answered.
    struct Entry: Sendable {
        let payloadDigest: SHA256Digest
        let kind: RetentionAnswerKind
        let body: [UInt8]
        let expires: Date
        /// Which insertion made it: a queue slot of an entry replaced since is stale.
        let sequence: UInt64
    }

    enum Lookup: Equatable {
        case miss
        case hit(kind: RetentionAnswerKind, body: [UInt8])
        /// An entry with this identifier answered another payload.
        case differentPayload
    }

    private struct State {
        var entries: [UUID: Entry] = [:]
        /// Identifiers in insertion order, from `head`; a slot whose sequence no longer matches its
        /// entry's was replaced.
        var queue: [(id: UUID, sequence: UInt64)] = []
        var head = 0
        var sequence: UInt64 = 0
    }

    let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many answers are remembered.
    var count: Int { state.withLockedValue { $0.entries.count } }

    /// The answer remembered for `id`, if it answered the same payload and has not expired.
    func lookup(_ id: UUID, payloadDigest: SHA256Digest, now: Date) -> Lookup {
        state.withLockedValue { state in
            guard let entry = state.entries[id], entry.expires > now else { return .miss }
            return entry.payloadDigest == payloadDigest ? .hit(kind: entry.kind, body: entry.body) : .differentPayload
        }
    }

    /// Remembers an answer until `expires` (when its request becomes stale); when another task
    /// remembered one for the same payload meanwhile, that one is kept and returned, so that both
    /// requests answer the same bytes.
    func store(
        _ id: UUID, payloadDigest: SHA256Digest, kind: RetentionAnswerKind, body: [UInt8], expires: Date, now: Date
    ) -> (kind: RetentionAnswerKind, body: [UInt8]) {
        guard capacity > 0 else { return (kind, body) }
        return state.withLockedValue { state in
            if let existing = state.entries[id], existing.expires > now, existing.payloadDigest == payloadDigest {
                return (existing.kind, existing.body)
            }
            Self.evict(&state, now: now, capacity: capacity - 1)
            state.sequence &+= 1
            state.entries[id] = Entry(
                payloadDigest: payloadDigest, kind: kind, body: body, expires: expires,
                sequence: state.sequence)
            state.queue.append((id, state.sequence))
            return (kind, body)
        }
    }

    /// Drops expired entries from the front, then the oldest until at most `capacity` remain.
    private static func evict(_ state: inout State, now: Date, capacity: Int) {
        while state.head < state.queue.count {
            let slot = state.queue[state.head]
            guard let entry = state.entries[slot.id], entry.sequence == slot.sequence else {
                state.head += 1  // replaced or already gone
                continue
            }
            guard entry.expires <= now || state.entries.count > capacity else { break }
            state.entries[slot.id] = nil
            state.head += 1
        }
        // The queue's consumed front is dropped once it is most of the array.
        if state.head > 1024, state.head * 2 > state.queue.count {
            state.queue.removeFirst(state.head)
            state.head = 0
        }
    }
}
