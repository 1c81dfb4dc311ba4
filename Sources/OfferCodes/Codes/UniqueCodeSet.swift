/// Remembers the codes drawn in one run, for ``CodeGenerator/generateUnique(count:accept:emit:)``
/// when there is no ledger: a `Set` with its capacity reserved up front, so it never rehashes.
///
/// Codes of up to 15 ASCII characters are stored inline; a million 12-character codes take
/// about 33 MiB. Codes compare exactly (generated codes are upper-case already).
public struct UniqueCodeSet: Sendable {
    private var codes: Set<String>

    /// An empty set with room for `expectedCount` codes (negative counts reserve nothing).
    public init(expectedCount: Int) {
        codes = []
        codes.reserveCapacity(max(0, expectedCount))
    }

    /// Adds `code`; returns `false` when it was already there.
    public mutating func insert(_ code: String) -> Bool {
        codes.insert(code).inserted
    }

    /// Whether `code` was inserted before.
    public func contains(_ code: String) -> Bool { codes.contains(code) }

    /// How many codes the set holds.
    public var count: Int { codes.count }
}
