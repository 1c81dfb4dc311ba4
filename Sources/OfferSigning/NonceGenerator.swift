import Foundation

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

    /// Random version 4 UUIDs from the operating system's CSPRNG (`SystemRandom`: one `getentropy` call each,
    /// about 10× cheaper than `UUID()` plus `uuidString.lowercased()`).
    public static let random = NonceGenerator { randomUUIDv4() }

    /// Always the same nonce: for tests and reproducible vectors only.
    public static func fixed(_ nonce: UUID) -> NonceGenerator {
        NonceGenerator { nonce }
    }

    static func randomUUIDv4() -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { SystemRandom.fill($0) }
        bytes.6 = (bytes.6 & 0x0F) | 0x40  // version 4
        bytes.8 = (bytes.8 & 0x3F) | 0x80  // RFC 9562 variant
        return UUID(uuid: bytes)
    }
}
