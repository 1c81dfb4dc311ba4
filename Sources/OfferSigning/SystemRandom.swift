#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operating system's cryptographic random bytes, for nonces, key IDs and API-key secrets:
/// `getentropy(2)` (at most 256 bytes per call), and the standard library's
/// `SystemRandomNumberGenerator` should it ever fail (sizes above 256 bytes, or no kernel
/// CSPRNG). Also a `RandomNumberGenerator` for `random(in:using:)` and `next(upperBound:)`.
///
/// Offer codes read `/dev/urandom` in bulk instead (OfferCodes' `RandomByteStream`): 64 KiB per
/// read, and an error rather than any fallback.
package struct SystemRandom: RandomNumberGenerator, Sendable {
    package init() {}

    /// Fills `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            let count = min(256, buffer.count - offset)
            if getentropy(buffer.baseAddress! + offset, count) != 0 {
                var generator = SystemRandomNumberGenerator()
                for index in offset..<offset + count { buffer[index] = generator.next() }
            }
            offset += count
        }
    }

    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { fill($0) }
        return bytes
    }

    package mutating func next() -> UInt64 {
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) { Self.fill($0) }
        return value
    }
}
