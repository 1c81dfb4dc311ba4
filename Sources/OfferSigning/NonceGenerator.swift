import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where signers get the `nonce` of each request: fresh random UUIDs in production, fixed
/// values in tests and interop vectors.
public struct NonceGenerator: Sendable {
    private let make: @Sendable () -> UUID

    /// A generator backed by a closure.
    public init(_ make: @escaping @Sendable () -> UUID) {
        self.make = make
    }

    /// The next nonce.
    public func next() -> UUID { make() }

    /// Random version 4 UUIDs from the operating system's CSPRNG (one `getentropy` call each,
    /// about 10× cheaper than `UUID()` plus `uuidString.lowercased()`).
    public static let random = NonceGenerator { randomUUIDv4() }

    /// Always the same nonce: for tests and reproducible vectors only.
    public static func fixed(_ nonce: UUID) -> NonceGenerator {
        NonceGenerator { nonce }
    }

    static func randomUUIDv4() -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let status = withUnsafeMutableBytes(of: &bytes) { getentropy($0.baseAddress, $0.count) }
        if status != 0 {
            // getentropy only fails for sizes above 256 bytes or without a kernel CSPRNG;
            // the standard library's generator is the safe fallback.
            var generator = SystemRandomNumberGenerator()
            withUnsafeMutableBytes(of: &bytes) { buffer in
                for index in buffer.indices { buffer[index] = generator.next() }
            }
        }
        bytes.6 = (bytes.6 & 0x0F) | 0x40  // version 4
        bytes.8 = (bytes.8 & 0x3F) | 0x80  // RFC 9562 variant
        return UUID(uuid: bytes)
    }
}
