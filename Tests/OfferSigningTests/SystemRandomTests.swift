import OfferSigning
import Testing

/// The one reader of the operating system's random bytes (nonces, key IDs, API-key secrets).
@Suite("SystemRandom")
struct SystemRandomTests {
    @Test("fills buffers of any size, past getentropy's 256 bytes per call")
    func sizes() {
        for count in [0, 1, 32, 255, 256, 257, 1000] {
            let bytes = SystemRandom.bytes(count)
            #expect(bytes.count == count)
            if count >= 32 {
                // 32 random bytes are never all zero in practice (2^-256), nor the same twice.
                #expect(bytes.contains { $0 != 0 }, "count \(count)")
                #expect(bytes != SystemRandom.bytes(count), "count \(count)")
            }
        }
        // The tail of a buffer longer than one call is filled too.
        #expect(SystemRandom.bytes(1000)[256...].contains { $0 != 0 })
    }

    @Test("as a RandomNumberGenerator, it draws every value of a small range")
    func generator() {
        var random = SystemRandom()
        var seen = Set<Int>()
        for _ in 0..<2000 { seen.insert(Int(random.next(upperBound: UInt32(32)))) }
        #expect(seen == Set(0..<32))
    }
}
