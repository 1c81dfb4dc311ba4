/// Generates custom offer codes: a prefix followed by random characters drawn uniformly from an
/// alphabet.
///
/// Each character comes from one random byte by rejection sampling (bytes at or above the
/// largest multiple of the alphabet size are skipped), so every character is equally likely.
/// Bytes come from a 64 KiB buffer, and each code is built in a small scratch buffer and turned
/// into one `String`, so a million 12-character codes take a fraction of a second.
///
/// Not `Sendable`: it holds a buffer of random bytes. Use one generator per thread. Copies share
/// that buffer, so a copy never repeats the original's codes.
public struct CodeGenerator {
    /// The longest code (prefix plus random characters).
    public static let maximumCodeLength = CampaignLimits.maximumCodeLength
    /// The most codes one spec, one ``generateUnique(count:accept:emit:)`` call or one
    /// ``UniqueCodeStream`` may ask for: 100,000,000.
    ///
    /// Checked before anything is allocated or drawn. It is 100 times Apple's limit of 1,000,000
    /// production offer codes per app per quarter, so no real campaign comes near it, while a
    /// count with a few zeros too many fails at once instead of filling a disk: 100,000,000
    /// codes of 12 characters are 1.3 GB of text and take about a minute to write.
    /// (Campaign validation allows at most Apple's limits per batch.)
    public static let maximumCount = 100_000_000
    /// How many codes in a row ``generateUnique(count:accept:emit:)`` lets `accept` refuse
    /// before it gives up with ``CodeGenerationError/spaceExhausted(accepted:count:)``.
    public static let maximumConsecutiveRefusals = 1000

    private let space: CodeSpace
    private let table: [UInt8]
    private var scratch: [UInt8]
    private let bytes: RandomByteStream

    /// Checks `spec` and opens the random source.
    ///
    /// The alphabet must hold at least 2 distinct characters from A-Z and 0-9, the prefix only
    /// those characters, `length` must be at least 1 and the code at most
    /// ``maximumCodeLength`` characters long, and `spec.count` at most half of all possible codes
    /// and at most ``maximumCount``.
    /// - Throws: ``CodeGenerationError`` naming the field, or
    ///   ``CodeGenerationError/randomSourceUnreadable(path:reason:)`` when `/dev/urandom` cannot be opened.
    public init(spec: CodeGenerationSpec, random: CodeRandomSource) throws(CodeGenerationError) {
        try self.init(spec: spec, random: random, devicePath: RandomByteStream.devicePath)
    }

    /// As ``init(spec:random:)``, reading the system source from `devicePath` (tests use it to
    /// check that an unreadable device is an error).
    init(spec: CodeGenerationSpec, random: CodeRandomSource, devicePath: String) throws(CodeGenerationError) {
        let space = try CodeSpace(spec)
        try space.check(count: spec.count)
        self.space = space
        table = space.samplingTable
        scratch = space.prefix + [UInt8](repeating: 0, count: space.length)
        bytes = try RandomByteStream(random, devicePath: devicePath)
    }

    /// Throws the error ``init(spec:random:)`` would throw for `spec`, without opening a random
    /// source. These are the generator's own limits; campaign validation may be stricter.
    public static func validate(_ spec: CodeGenerationSpec) throws(CodeGenerationError) {
        try CodeSpace(spec).check(count: spec.count)
    }

    /// Half of all possible codes (alphabet size to the power of `length`): with
    /// ``maximumCount``, the most codes ``generateUnique(count:accept:emit:)`` accepts.
    public var maximumUniqueCount: Int { space.maximumUniqueCount }

    /// One code: the prefix followed by `length` characters drawn uniformly from the alphabet.
    /// Codes may repeat; use ``generateUnique(count:accept:emit:)`` for distinct codes.
    /// - Throws: ``CodeGenerationError/randomSourceUnreadable(path:reason:)`` when the system
    ///   source cannot be read.
    public mutating func next() throws(CodeGenerationError) -> String {
        let prefixCount = space.prefix.count
        let bytes = self.bytes
        try table.withUnsafeBufferPointer { (table) throws(CodeGenerationError) in
            try scratch.withUnsafeMutableBufferPointer { (scratch) throws(CodeGenerationError) in
                try bytes.draw(into: UnsafeMutableBufferPointer(rebasing: scratch[prefixCount...]), table: table)
            }
        }
        return scratch.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// Generates `count` distinct codes.
    ///
    /// Each drawn code is offered to `accept`, which returns `false` when the code is taken
    /// (already drawn in this run, or already in the ledger); another code is then drawn. Every
    /// accepted code is passed to `emit`, in order. Memory stays constant beyond what `accept`
    /// keeps (a ``UniqueCodeSet``, or a ledger); for unique codes without a ledger,
    /// ``UniqueCodeStream`` needs no memory for them at all.
    /// - Throws: ``CodeGenerationError/countNegative(_:)``,
    ///   ``CodeGenerationError/countAboveMaximum(count:maximum:)`` or
    ///   ``CodeGenerationError/countTooLarge(count:maximum:)`` before drawing anything;
    ///   ``CodeGenerationError/spaceExhausted(accepted:count:)`` after
    ///   ``maximumConsecutiveRefusals`` refusals in a row; errors of the random source; and
    ///   whatever `accept` or `emit` throw.
    public mutating func generateUnique(
        count: Int, accept: (String) throws -> Bool, emit: (String) throws -> Void
    ) throws {
        try space.check(count: count)
        var accepted = 0
        var refusals = 0
        while accepted < count {
            let code = try next()
            if try accept(code) {
                try emit(code)
                accepted += 1
                refusals = 0
            } else {
                refusals += 1
                if refusals >= Self.maximumConsecutiveRefusals {
                    throw CodeGenerationError.spaceExhausted(accepted: accepted, count: count)
                }
            }
        }
    }

    /// Generates `count` distinct codes a chunk at a time, for a ledger that checks many codes in
    /// one statement: each chunk of codes new to this run (at most `chunk`) is offered to
    /// `taken`, which returns those already issued elsewhere; the others go to `emit`, in order,
    /// and the taken ones are drawn again. The codes of the run are remembered
    /// (``UniqueCodeSet``).
    /// - Throws: as ``generateUnique(count:accept:emit:)``, counting a code drawn again in this
    ///   run or taken elsewhere as a refusal; and whatever `taken` or `emit` throw.
    package mutating func generateUnique(
        count: Int, chunk: Int, prefix: String, taken: ([String]) async throws -> Set<String>,
        emit: ([String]) async throws -> Void
    ) async throws {
        try space.check(count: count)
        var drawn = UniqueCodeSet(expectedCount: count, sharedPrefix: prefix)
        var accepted = 0
        var refusals = 0
        while accepted < count {
            var candidates: [String] = []
            let wanted = min(chunk, count - accepted)
            candidates.reserveCapacity(wanted)
            while candidates.count < wanted {
                let code = try next()
                if drawn.insert(code) {
                    candidates.append(code)
                    refusals = 0
                } else {
                    refusals += 1
                    if refusals >= Self.maximumConsecutiveRefusals {
                        throw CodeGenerationError.spaceExhausted(accepted: accepted, count: count)
                    }
                }
            }
            let refused = try await taken(candidates)
            let fresh = refused.isEmpty ? candidates : candidates.filter { !refused.contains($0) }
            if fresh.isEmpty {
                refusals += candidates.count
                if refusals >= Self.maximumConsecutiveRefusals {
                    throw CodeGenerationError.spaceExhausted(accepted: accepted, count: count)
                }
            }
            try await emit(fresh)
            accepted += fresh.count
        }
    }
}
