/// A keyed pseudo-random permutation of the integers `0..<domainSize`: format-preserving
/// encryption of a number, so distinct inputs always give distinct outputs in the same range.
///
/// The construction is the FF1-style Feistel network (NIST SP 800-38G) on bits, with cycle-walking:
/// - `w` is the number of bits of the largest value (at least 2), split into a high half of
///   `u = w / 2` bits and a low half of `v = w - u` bits (balanced when `w` is even, one bit apart
///   otherwise, as FF1 splits its numeral strings).
/// - Each of ``rounds`` rounds replaces the half that is `m` bits wide (`u` in even rounds, `v`
///   in odd ones) by itself XOR the low `m` bits of a keyed PRF of the round number and the other
///   half, then swaps the halves (Luby and Rackoff, "How to construct pseudorandom permutations
///   from pseudorandom functions", 1988). That is a permutation of `0..<2^w` whatever the PRF.
/// - Cycle-walking (Black and Rogaway, "Ciphers with arbitrary finite domains", CT-RSA 2002):
///   while the result is `domainSize` or more, the network is applied again. Since the network is
///   a permutation of `0..<2^w` and the input is below `domainSize`, this ends, and the outputs
///   for distinct inputs are distinct. `2^w <= 2 * domainSize`, so at most 2 passes are needed
///   on average.
///
/// The round function is ``SipHash24``, a keyed PRF designed for short inputs, rather than AES as
/// in FF1: swift-crypto has no single-block AES call that keeps its key schedule
/// (`_CryptoExtras`' `AES.permute` expands the key on every call). Measured on the 2-core
/// development machine (release build, calls one after another, the machine shared with
/// builds), `AES.permute` on a 16-byte block took 100-190 ns per call and
/// ``SipHash24/hash(word:)`` 17-37 ns, 5 to 6 times less in every run. 12 characters of the
/// default alphabet take 10 rounds times about 1.46 passes, so about 15 PRF calls per code:
/// 1.5-2.8 s per million codes with `AES.permute` against 0.25-0.55 s with SipHash (computing
/// two codes side by side, ``permute(_:_:)``, saves another fifth).
///
/// FF1 uses 10 rounds; so does this network. Inputs of the PRF are the round number in the top
/// byte and the half (at most 31 bits) in the low bytes, so no two rounds share an input.
struct FeistelPermutation: Sendable {
    /// The number of Feistel rounds, as in FF1.
    static let rounds = 10
    /// The largest domain: 2^62, so that both halves fit in 31 bits.
    static let maximumDomainSize: UInt64 = 1 << 62

    /// The permutation acts on `0..<domainSize`.
    let domainSize: UInt64
    private let prf: SipHash24
    private let highBits: UInt64
    private let lowBits: UInt64

    /// A permutation of `0..<domainSize` chosen by the 128-bit key (`k0`, `k1`).
    /// - Precondition: `2 <= domainSize <= 2^62`.
    init(domainSize: UInt64, k0: UInt64, k1: UInt64) {
        precondition(domainSize >= 2 && domainSize <= Self.maximumDomainSize, "domain size \(domainSize)")
        self.domainSize = domainSize
        prf = SipHash24(k0: k0, k1: k1)
        let width = max(2, UInt64(64 - (domainSize - 1).leadingZeroBitCount))
        highBits = width / 2
        lowBits = width - highBits
    }

    /// Whether ``permute(_:)`` may need more than one pass of the network (the domain is not a
    /// power of 2).
    var walksCycles: Bool { domainSize & (domainSize - 1) != 0 }

    /// The image of `value`.
    /// - Precondition: `value < domainSize`.
    @inline(__always)
    func permute(_ value: UInt64) -> UInt64 {
        precondition(value < domainSize, "\(value) is outside 0..<\(domainSize)")
        var result = network(value)
        while result >= domainSize {
            result = network(result)
        }
        return result
    }

    /// The images of `first` and `second`, computed side by side (the same as two calls of
    /// ``permute(_:)``, in less time).
    /// - Precondition: both are below `domainSize`.
    @inline(__always)
    func permute(_ first: UInt64, _ second: UInt64) -> (UInt64, UInt64) {
        precondition(first < domainSize && second < domainSize, "\(first), \(second) outside 0..<\(domainSize)")
        var (one, two) = network(first, second)
        while one >= domainSize && two >= domainSize {
            (one, two) = network(one, two)
        }
        while one >= domainSize { one = network(one) }
        while two >= domainSize { two = network(two) }
        return (one, two)
    }

    /// One pass of the Feistel network on `0..<2^(highBits + lowBits)`.
    @inline(__always)
    private func network(_ value: UInt64) -> UInt64 {
        var left = value &>> lowBits
        var right = value & ((1 &<< lowBits) &- 1)
        var round: UInt64 = 0
        while round < UInt64(Self.rounds) {
            let width = round & 1 == 0 ? highBits : lowBits
            let mixed = left ^ (prf.hash(word: round &<< 56 | right) & ((1 &<< width) &- 1))
            left = right
            right = mixed
            round += 1
        }
        return left &<< lowBits | right
    }

    /// ``network(_:)`` of two values side by side.
    @inline(__always)
    private func network(_ first: UInt64, _ second: UInt64) -> (UInt64, UInt64) {
        let lowMask: UInt64 = (1 &<< lowBits) &- 1
        var (left1, right1) = (first &>> lowBits, first & lowMask)
        var (left2, right2) = (second &>> lowBits, second & lowMask)
        var round: UInt64 = 0
        while round < UInt64(Self.rounds) {
            let mask: UInt64 = (1 &<< (round & 1 == 0 ? highBits : lowBits)) &- 1
            let (f1, f2) = prf.hash(word: round &<< 56 | right1, word: round &<< 56 | right2)
            (left1, right1) = (right1, left1 ^ (f1 & mask))
            (left2, right2) = (right2, left2 ^ (f2 & mask))
            round += 1
        }
        return (left1 &<< lowBits | right1, left2 &<< lowBits | right2)
    }
}
