/// Remembers the codes drawn in one run, for ``CodeGenerator/generateUnique(count:accept:emit:)``
/// when the codes must also be checked against others: a `Set` with its capacity reserved up
/// front, so it does not rehash (up to ``maximumReservedCount`` codes). For unique codes alone,
/// ``UniqueCodeStream`` needs no memory per code.
///
/// Codes of up to 15 ASCII characters are stored inline; a million 12-character codes take
/// about 33 MiB. A prefix that every code shares is not stored at all: without that, a million
/// `SPRING` + 12-character codes took a heap allocation each and 80 MB more. Codes compare
/// exactly (generated codes are upper-case already).
public struct UniqueCodeSet: Sendable {
    /// Codes that start with the shared prefix, without it.
    private var suffixes: Set<String>
    /// Every other code, whole.
    private var others: Set<String> = []
    private let sharedPrefix: [UInt8]

    /// The most codes the set reserves room for up front (2^20, more than Apple's 1,000,000
    /// production codes per app per quarter); a larger set grows as codes are inserted, so a
    /// huge `expectedCount` cannot allocate memory the codes never fill.
    public static let maximumReservedCount = 1 << 20

    /// An empty set with room for `expectedCount` codes, at most ``maximumReservedCount``
    /// (negative counts reserve nothing).
    public init(expectedCount: Int) {
        self.init(expectedCount: expectedCount, sharedPrefix: "")
    }

    /// An empty set for codes that share `sharedPrefix`, which it does not store. Codes are
    /// ASCII, as generated codes always are: the prefix is cut off byte by byte, so two
    /// non-ASCII spellings of one string on either side of the cut would count as two codes.
    package init(expectedCount: Int, sharedPrefix: String) {
        suffixes = []
        suffixes.reserveCapacity(min(max(0, expectedCount), Self.maximumReservedCount))
        self.sharedPrefix = Array(sharedPrefix.utf8)
    }

    /// Adds `code`; returns `false` when it was already there.
    public mutating func insert(_ code: String) -> Bool {
        if let suffix = suffix(of: code) { return suffixes.insert(suffix).inserted }
        return others.insert(code).inserted
    }

    /// Whether `code` was inserted before.
    public func contains(_ code: String) -> Bool {
        if let suffix = suffix(of: code) { return suffixes.contains(suffix) }
        return others.contains(code)
    }

    /// How many codes the set holds.
    public var count: Int { suffixes.count + others.count }

    /// The code without the shared prefix, or `nil` when it does not start with it.
    private func suffix(of code: String) -> String? {
        let utf8 = code.utf8
        guard utf8.starts(with: sharedPrefix) else { return nil }
        return sharedPrefix.isEmpty ? code : String(Substring(utf8.dropFirst(sharedPrefix.count)))
    }
}
