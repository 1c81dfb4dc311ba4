/// Remembers the codes drawn in one run, for ``CodeGenerator/generateUnique(count:accept:emit:)``
/// when there is no ledger: a `Set` with its capacity reserved up front, so it never rehashes.
///
/// Codes of up to 15 ASCII characters are stored inline; a million 12-character codes take
/// about 33 MiB. A prefix that every code shares is not stored at all: without that, a million
/// `SPRING` + 12-character codes took a heap allocation each and 80 MB more. Codes compare
/// exactly (generated codes are upper-case already).
public struct UniqueCodeSet: Sendable {
    private var codes: Set<String>
    private let sharedPrefix: [UInt8]

    /// An empty set with room for `expectedCount` codes (negative counts reserve nothing).
    /// - Parameter sharedPrefix: the prefix the codes are expected to share; codes without it
    ///   are remembered too, and never mistaken for codes with it.
    public init(expectedCount: Int, sharedPrefix: String = "") {
        codes = []
        codes.reserveCapacity(max(0, expectedCount))
        self.sharedPrefix = Array(sharedPrefix.utf8)
    }

    /// Adds `code`; returns `false` when it was already there.
    public mutating func insert(_ code: String) -> Bool {
        codes.insert(key(code)).inserted
    }

    /// Whether `code` was inserted before.
    public func contains(_ code: String) -> Bool { codes.contains(key(code)) }

    /// The code without the shared prefix; a code without the prefix is marked with a leading
    /// NUL, which no code contains, so that `PREFIX` + `X` and `X` stay different.
    private func key(_ code: String) -> String {
        guard !sharedPrefix.isEmpty else { return code }
        let utf8 = code.utf8
        guard utf8.starts(with: sharedPrefix) else { return "\u{0}" + code }
        return String(Substring(utf8.dropFirst(sharedPrefix.count)))
    }

    /// How many codes the set holds.
    public var count: Int { codes.count }
}
