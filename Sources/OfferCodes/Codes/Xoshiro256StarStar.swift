/// The xoshiro256** generator (Blackman and Vigna, 2018), seeded by expanding a 64-bit seed with
/// SplitMix64, as its authors recommend. Simple, fast, stable across platforms; not
/// cryptographic, so only ``CodeRandomSource/seeded(_:)`` uses it.
struct Xoshiro256StarStar {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init(seed: UInt64) {
        var splitMix = seed
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        // Four consecutive SplitMix64 outputs are never all zero (SplitMix64 is a bijection of its counter).
        state = (nextSplitMix(), nextSplitMix(), nextSplitMix(), nextSplitMix())
    }

    mutating func next() -> UInt64 {
        let result = rotateLeft(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotateLeft(state.3, 45)
        return result
    }

    /// Fills `buffer` with the little-endian bytes of successive outputs (a partial last output
    /// is not used for anything else).
    mutating func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        var index = 0
        while index < buffer.count {
            var word = next()
            let end = min(index + 8, buffer.count)
            while index < end {
                buffer[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
    }

    private func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}
