/// Streams `count` distinct custom codes in constant memory, however large `count` is (up to
/// ``CodeGenerator/maximumCount``): no code is remembered to keep them unique.
///
/// Code number `i` (counting from 0) is the prefix, then the `d` base-`n` digits of `P(i)` written
/// with the alphabet (`n` letters), then `length - d` characters drawn uniformly from the
/// alphabet. `P` is a keyed pseudo-random permutation of `0..<n^d` (`FeistelPermutation`: an
/// FF1-style Feistel network with SipHash-2-4 rounds and cycle-walking) keyed by 128 random bits,
/// and `d` is the largest number of characters, at most `length`, for which `n^d <= 2^62`.
/// Distinct `i` give distinct `P(i)`, so the codes are unique by construction; the characters
/// after the first `d` cannot make two codes equal, they only add unpredictability.
///
/// The key is drawn from the same source as the characters (``CodeRandomSource/system``:
/// `/dev/urandom`) when the stream is made, is kept only in memory and is never written out.
/// Without the key, the codes cannot be told from `count` codes drawn uniformly at random without
/// repetition, as long as SipHash-2-4 is a PRF and the 10-round Feistel network a pseudo-random
/// permutation: knowing some codes of a run tells nothing about the others beyond that they
/// differ. With ``CodeRandomSource/seeded(_:)`` the key comes from the seed, so the codes are
/// reproducible and guessable, for tests and examples only.
///
/// For codes that must also be unique against a ledger, use
/// ``CodeGenerator/generateUnique(count:accept:emit:)`` with the ledger's check.
///
/// A class, not `Sendable`: copies share one counter and one random source, so no two copies
/// hand out the same code. Use one stream per thread.
public final class UniqueCodeStream {
    /// How many codes the stream gives in all.
    public let count: Int
    /// How many codes the stream has given so far.
    public private(set) var produced = 0

    private let permutation: FeistelPermutation
    private let alphabet: [UInt8]
    private let table: [UInt8]
    private let bytes: RandomByteStream
    /// The code being built: the prefix, then `length` characters.
    private let scratch: UnsafeMutableBufferPointer<UInt8>
    private let prefixLength: Int
    /// How many characters after the prefix come from the permutation (`d`).
    let permutedLength: Int
    /// The most digits whose value fits in 32 bits, and `n` to that power: digits are written
    /// from 32-bit chunks, as 32-bit division is faster than 64-bit division.
    private let chunkDigits: Int
    private let chunkDivisor: UInt64
    /// The image of `produced` when it is odd: images are computed two at a time.
    private var pending: UInt64 = 0

    /// Checks `spec` like ``CodeGenerator/init(spec:random:)`` does, opens the random source and
    /// draws the key.
    /// - Throws: ``CodeGenerationError`` naming the field (including
    ///   ``CodeGenerationError/countAboveMaximum(count:maximum:)`` above
    ///   ``CodeGenerator/maximumCount``), before anything is allocated for the codes; or
    ///   ``CodeGenerationError/randomSourceUnreadable(path:reason:)``.
    public convenience init(spec: CodeGenerationSpec, random: CodeRandomSource) throws(CodeGenerationError) {
        try self.init(spec: spec, random: random, devicePath: RandomByteStream.devicePath)
    }

    /// As ``init(spec:random:)``, reading the system source from `devicePath`.
    init(spec: CodeGenerationSpec, random: CodeRandomSource, devicePath: String) throws(CodeGenerationError) {
        let space = try CodeSpace(spec)
        try space.check(count: spec.count)
        let radix = UInt64(space.alphabet.count)
        var permutedLength = 0
        var domainSize: UInt64 = 1
        while permutedLength < space.length {
            let (next, overflow) = domainSize.multipliedReportingOverflow(by: radix)
            guard !overflow, next <= FeistelPermutation.maximumDomainSize else { break }
            domainSize = next
            permutedLength += 1
        }
        // Either the permutation covers the whole space (and `count` is at most half of it), or
        // its domain exceeds 2^62 / 36, far above CodeGenerator.maximumCount. Images are computed
        // in pairs, so `count` itself (an unused partner) must be inside the domain too.
        precondition(UInt64(spec.count) < domainSize, "count \(spec.count) exceeds the domain \(domainSize)")
        var chunkDigits = 0
        var chunkDivisor: UInt64 = 1
        while chunkDivisor * radix <= UInt64(UInt32.max) {
            chunkDivisor *= radix
            chunkDigits += 1
        }
        let bytes = try RandomByteStream(random, devicePath: devicePath)
        let k0 = try bytes.word()
        let k1 = try bytes.word()
        self.count = spec.count
        self.permutation = FeistelPermutation(domainSize: domainSize, k0: k0, k1: k1)
        self.alphabet = space.alphabet
        self.table = space.samplingTable
        self.bytes = bytes
        self.scratch = .allocate(capacity: space.prefix.count + space.length)
        _ = self.scratch.initialize(from: space.prefix + [UInt8](repeating: 0, count: space.length))
        self.prefixLength = space.prefix.count
        self.permutedLength = permutedLength
        self.chunkDigits = chunkDigits
        self.chunkDivisor = chunkDivisor
    }

    deinit {
        scratch.deallocate()
    }

    /// The next code, or `nil` after ``count`` codes. Every code differs from every other code
    /// of this stream.
    /// - Throws: ``CodeGenerationError/randomSourceUnreadable(path:reason:)`` when the system
    ///   source cannot be read (after the key, only codes longer than the permuted part read it).
    public func next() throws(CodeGenerationError) -> String? {
        guard try advance() else { return nil }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Calls `body` with the ASCII bytes of the next code and returns its result, or returns
    /// `nil` after ``count`` codes. The same codes as ``next()``, without making a `String` of
    /// each (faster for streaming to a file); the bytes are only valid inside `body`.
    /// - Throws: the errors of ``next()``, and whatever `body` throws.
    public func next<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result? {
        guard try advance() else { return nil }
        return try body(UnsafeBufferPointer(scratch))
    }

    /// Builds code number `produced` in `scratch` and counts it; `false` after ``count`` codes.
    private func advance() throws(CodeGenerationError) -> Bool {
        guard produced < count else { return false }
        let value: UInt64
        if produced & 1 == 0 {
            let index = UInt64(produced)
            (value, pending) = permutation.permute(index, index + 1)
        } else {
            value = pending
        }
        produced += 1
        try fill(value)
        return true
    }

    /// Writes the digits of `value` and the random characters after them into `scratch`.
    private func fill(_ value: UInt64) throws(CodeGenerationError) {
        let scratch = self.scratch
        let radix = UInt32(alphabet.count)
        var value = value
        var position = prefixLength + permutedLength
        var remaining = permutedLength
        alphabet.withUnsafeBufferPointer { alphabet in
            while remaining > 0 {
                let take = min(remaining, chunkDigits)
                var chunk: UInt32
                if remaining > take {
                    let (quotient, remainder) = value.quotientAndRemainder(dividingBy: chunkDivisor)
                    value = quotient
                    chunk = UInt32(truncatingIfNeeded: remainder)
                } else {
                    chunk = UInt32(truncatingIfNeeded: value)
                }
                for _ in 0..<take {
                    let (quotient, digit) = chunk.quotientAndRemainder(dividingBy: radix)
                    position -= 1
                    scratch[position] = alphabet[Int(digit)]
                    chunk = quotient
                }
                remaining -= take
            }
        }
        let tail = prefixLength + permutedLength
        guard tail < scratch.count else { return }
        let bytes = self.bytes
        try table.withUnsafeBufferPointer { (table) throws(CodeGenerationError) in
            try bytes.draw(into: UnsafeMutableBufferPointer(rebasing: scratch[tail...]), table: table)
        }
    }
}
