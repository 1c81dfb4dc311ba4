/// Where a ``CodeGenerator`` gets its random bytes.
public enum CodeRandomSource: Sendable, Equatable {
    /// The operating system's cryptographic generator: bulk bytes read from `/dev/urandom` in
    /// 64 KiB blocks. If the device cannot be opened or read, generation throws
    /// ``CodeGenerationError/randomSourceUnreadable(path:reason:)``; it never falls back to a
    /// weaker source. Use this for every code a customer will see.
    case system

    /// A reproducible stream for tests and examples. **Not for production**: anyone who knows
    /// (or guesses) the seed can compute every code. The same seed gives the same codes on every
    /// platform and in every run: the seed is expanded with SplitMix64 into the state of a
    /// xoshiro256** generator, whose 64-bit outputs are used as bytes in little-endian order.
    case seeded(UInt64)

    /// Whether the source gives the same codes every time (`true` for ``seeded(_:)`` only).
    public var isReproducible: Bool {
        switch self {
        case .system: false
        case .seeded: true
        }
    }
}
