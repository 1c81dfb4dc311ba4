/// SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012): a keyed
/// pseudo-random function with a 128-bit key and a 64-bit output, designed for short inputs.
///
/// ``UniqueCodeStream`` uses it as the round function of its Feistel network, on one 64-bit
/// word per call (``hash(word:)``). ``hash(_:)`` takes any bytes; the tests check it against
/// the 64 reference vectors of the authors' implementation and check that both agree.
struct SipHash24: Sendable {
    private let k0: UInt64
    private let k1: UInt64

    /// A PRF keyed by the 16 bytes `k0` and `k1` (little-endian halves of the key, as in the
    /// reference implementation).
    init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    /// SipHash-2-4 of `bytes`.
    func hash(_ bytes: some Collection<UInt8>) -> UInt64 {
        var state = State(k0: k0, k1: k1)
        var word: UInt64 = 0
        var filled = 0
        for byte in bytes {
            word |= UInt64(byte) &<< (8 * UInt64(filled))
            filled += 1
            if filled == 8 {
                state.compress(word)
                word = 0
                filled = 0
            }
        }
        state.compress(word | UInt64(truncatingIfNeeded: bytes.count) &<< 56)
        return state.finalize()
    }

    /// SipHash-2-4 of the 8 little-endian bytes of `word`: the same value as `hash` of those
    /// bytes, without a loop over them.
    @inline(__always)
    func hash(word: UInt64) -> UInt64 {
        var state = State(k0: k0, k1: k1)
        state.compress(word)
        state.compress(8 &<< 56)
        return state.finalize()
    }

    /// ``hash(word:)`` of two words at once. The two computations are independent, so the
    /// processor overlaps them: two words take less time than two calls.
    @inline(__always)
    func hash(word first: UInt64, word second: UInt64) -> (UInt64, UInt64) {
        var one = State(k0: k0, k1: k1)
        var two = State(k0: k0, k1: k1)
        one.compress(first)
        two.compress(second)
        one.compress(8 &<< 56)
        two.compress(8 &<< 56)
        return (one.finalize(), two.finalize())
    }

    private struct State {
        var v0: UInt64
        var v1: UInt64
        var v2: UInt64
        var v3: UInt64

        @inline(__always)
        init(k0: UInt64, k1: UInt64) {
            v0 = k0 ^ 0x736F_6D65_7073_6575
            v1 = k1 ^ 0x646F_7261_6E64_6F6D
            v2 = k0 ^ 0x6C79_6765_6E65_7261
            v3 = k1 ^ 0x7465_6462_7974_6573
        }

        /// One message word: two SipRounds ("2" of 2-4).
        @inline(__always)
        mutating func compress(_ message: UInt64) {
            v3 ^= message
            round()
            round()
            v0 ^= message
        }

        /// Four SipRounds ("4" of 2-4), then the four words folded into one.
        @inline(__always)
        mutating func finalize() -> UInt64 {
            v2 ^= 0xFF
            round()
            round()
            round()
            round()
            return v0 ^ v1 ^ v2 ^ v3
        }

        /// One SipRound. Rotations are written out (not a helper function), so that debug
        /// builds, which do not inline, stay usable for tests.
        @inline(__always)
        private mutating func round() {
            v0 &+= v1
            v1 = (v1 &<< 13) | (v1 &>> 51)
            v1 ^= v0
            v0 = (v0 &<< 32) | (v0 &>> 32)
            v2 &+= v3
            v3 = (v3 &<< 16) | (v3 &>> 48)
            v3 ^= v2
            v0 &+= v3
            v3 = (v3 &<< 21) | (v3 &>> 43)
            v3 ^= v0
            v2 &+= v1
            v1 = (v1 &<< 17) | (v1 &>> 47)
            v1 ^= v2
            v2 = (v2 &<< 32) | (v2 &>> 32)
        }
    }
}
