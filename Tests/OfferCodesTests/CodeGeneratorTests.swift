import Foundation
import Testing

@testable import OfferCodes

@Suite("Code generator")
struct CodeGeneratorTests {
    private static let alphabet = CodeGenerationSpec.defaultAlphabet

    private static func generator(
        _ random: CodeRandomSource, count: Int = 1, prefix: String = "", length: Int = 10, alphabet: String = alphabet
    ) throws -> CodeGenerator {
        try CodeGenerator(
            spec: CodeGenerationSpec(count: count, prefix: prefix, length: length, alphabet: alphabet), random: random)
    }

    private static func codes(_ generator: inout CodeGenerator, _ count: Int) throws -> [String] {
        try (0..<count).map { _ in try generator.next() }
    }

    // MARK: - Seeded source

    @Test func seededGeneratorMatchesPublishedXoshiroVectors() {
        // SplitMix64(0) expanded into xoshiro256**: the reference C code's first outputs.
        var generator = Xoshiro256StarStar(seed: 0)
        let expected: [UInt64] = [
            0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0, 0x6AA5_94F1_262D_2D2C,
        ]
        #expect((0..<4).map { _ in generator.next() } == expected)
    }

    @Test func seededCodesMatchTheGoldenList() throws {
        // Computed by an independent Python transcription of SplitMix64, xoshiro256**, the
        // little-endian byte order and the rejection rule (bytes >= 256 - 256 % n are skipped).
        var plain = try Self.generator(.seeded(20_270_301))
        #expect(try Self.codes(&plain, 5) == ["RFY7NGE8HY", "DSTR5Q24J6", "GFJZ8Q3F9X", "DJETGQ69FU", "TB23Q6GFKV"])
        var prefixed = try Self.generator(.seeded(20_270_301), prefix: "VIP", length: 8)
        #expect(try Self.codes(&prefixed, 3) == ["VIPRFY7NGE8", "VIPHYDSTR5Q", "VIP24J6GFJZ"])
        var binary = try Self.generator(.seeded(7), length: 4, alphabet: "AB")
        #expect(try Self.codes(&binary, 6) == ["AABA", "BAAB", "AAAB", "ABAB", "ABAB", "BBBA"])
    }

    @Test func sameSeedGivesSameCodesAndDifferentSeedsDiffer() throws {
        var first = try Self.generator(.seeded(42))
        var second = try Self.generator(.seeded(42))
        var other = try Self.generator(.seeded(43))
        let codes = try Self.codes(&first, 1000)
        #expect(try Self.codes(&second, 1000) == codes)
        let otherCodes = try Self.codes(&other, 1000)
        #expect(otherCodes != codes)
        #expect(Set(otherCodes).isDisjoint(with: codes))
        #expect(CodeRandomSource.seeded(42).isReproducible)
        #expect(!CodeRandomSource.system.isReproducible)
    }

    @Test func copiesShareTheRandomStream() throws {
        var original = try Self.generator(.seeded(9))
        var copy = original
        let interleaved = [try original.next(), try copy.next(), try original.next()]
        var fresh = try Self.generator(.seeded(9))
        #expect(interleaved == (try Self.codes(&fresh, 3)))
    }

    // MARK: - System source

    @Test func systemSourceDiffersBetweenGenerators() throws {
        var first = try Self.generator(.system)
        var second = try Self.generator(.system)
        let firstCodes = try Self.codes(&first, 100)
        let secondCodes = try Self.codes(&second, 100)
        #expect(Set(firstCodes).count == 100)
        #expect(Set(firstCodes).isDisjoint(with: secondCodes))
    }

    @Test func unreadableSystemSourceThrowsInsteadOfFallingBack() throws {
        let spec = CodeGenerationSpec(count: 1)
        let missing = "/nonexistent-offerkit/urandom"
        #expect(throws: CodeGenerationError.randomSourceUnreadable(path: missing, reason: "No such file or directory"))
        {
            _ = try CodeGenerator(spec: spec, random: .system, devicePath: missing)
        }

        let regular = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-\(UUID().uuidString)")
            .path
        try Data(repeating: 0x41, count: 1 << 17).write(to: URL(fileURLWithPath: regular))
        defer { try? FileManager.default.removeItem(atPath: regular) }
        #expect(
            throws: CodeGenerationError.randomSourceUnreadable(path: regular, reason: "it is not a character device")
        ) {
            _ = try CodeGenerator(spec: spec, random: .system, devicePath: regular)
        }

        // /dev/null is a character device that reads as empty: the first draw fails.
        var empty = try CodeGenerator(spec: spec, random: .system, devicePath: "/dev/null")
        let endOfFile = CodeGenerationError.randomSourceUnreadable(
            path: "/dev/null", reason: "it returned no bytes (end of file)")
        #expect(throws: endOfFile) { _ = try empty.next() }
        #expect(throws: endOfFile) {
            try empty.generateUnique(count: 1, accept: { _ in true }, emit: { _ in })
        }
    }

    // MARK: - Distribution

    /// Pearson's chi-square statistic of the character counts against a uniform distribution.
    private static func chiSquare(_ codes: [String], alphabet: String) -> (statistic: Double, missing: Set<Character>) {
        var counts: [Character: Int] = [:]
        var total = 0
        for code in codes {
            for character in code {
                counts[character, default: 0] += 1
                total += 1
            }
        }
        let expected = Double(total) / Double(alphabet.count)
        let statistic = alphabet.reduce(0.0) { sum, character in
            let difference = Double(counts[character] ?? 0) - expected
            return sum + difference * difference / expected
        }
        #expect(Set(counts.keys).isSubset(of: Set(alphabet)), "characters outside the alphabet")
        return (statistic, Set(alphabet).subtracting(counts.keys))
    }

    @Test(arguments: [alphabet, "ABCDEFGHJKLMNPQRSTUVWXYZ23456"])
    func seededCharactersAreUniform(alphabet: String) throws {
        // 200,000 characters. The 29-character alphabet would show a 12.5% excess on 24 of its
        // characters with a plain modulo (256 % 29 = 24); with rejection sampling the statistic
        // stays near its degrees of freedom (28-30). 80 is far beyond chance (p < 1e-6).
        var generator = try Self.generator(.seeded(2027), length: 20, alphabet: alphabet)
        let result = Self.chiSquare(try Self.codes(&generator, 10_000), alphabet: alphabet)
        #expect(result.missing.isEmpty)
        #expect(result.statistic < 80, "chi-square \(result.statistic)")
    }

    @Test func systemCharactersAreUniform() throws {
        var generator = try Self.generator(.system, length: 20)
        let result = Self.chiSquare(try Self.codes(&generator, 10_000), alphabet: Self.alphabet)
        #expect(result.missing.isEmpty)
        #expect(result.statistic < 100, "chi-square \(result.statistic)")  // p < 1e-9 by chance
    }

    @Test(arguments: [2, 29, 31, 36])
    func samplingTableHasNoModuloBias(size: Int) throws {
        let alphabet = String("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".prefix(size))
        let table = try CodeSpace(CodeGenerationSpec(count: 1, alphabet: alphabet)).samplingTable
        #expect(table.count == 256)
        #expect(table.filter { $0 == 0 }.count == 256 % size)
        for byte in alphabet.utf8 {
            #expect(table.filter { $0 == byte }.count == 256 / size)
        }
    }

    // MARK: - Shape

    @Test func defaultAlphabetHasNoLookAlikes() throws {
        let alphabet = Set(Self.alphabet)
        #expect(alphabet.count == Self.alphabet.count)
        #expect(alphabet.isDisjoint(with: ["0", "O", "1", "I", "L"]))
        #expect(alphabet.count == 31)
        var generator = try Self.generator(.system)
        for code in try Self.codes(&generator, 1000) {
            #expect(code.allSatisfy { alphabet.contains($0) }, "\(code)")
        }
    }

    @Test func codesHaveThePrefixAndLength() throws {
        var generator = try Self.generator(.system, prefix: "VIP", length: 8)
        for code in try Self.codes(&generator, 500) {
            #expect(code.count == 11)
            #expect(code.hasPrefix("VIP"))
            #expect(code.dropFirst(3).allSatisfy { Self.alphabet.contains($0) })
        }
        var long = try Self.generator(.seeded(1), prefix: String(repeating: "Z", count: 40), length: 24)
        let code = try long.next()
        #expect(code.count == 64)
        #expect(code.hasPrefix(String(repeating: "Z", count: 40)))
        var defaultLength = try Self.generator(.system)
        #expect(try defaultLength.next().count == CodeGenerationSpec.defaultLength)
    }

    // MARK: - Uniqueness

    @Test func uniqueCodesFillHalfOfATinySpace() throws {
        var generator = try Self.generator(.system, count: 8, length: 4, alphabet: "AB")
        #expect(generator.maximumUniqueCount == 8)
        var seen = UniqueCodeSet(expectedCount: 8)
        var offered: [String] = []
        var acceptedInOrder: [String] = []
        var emitted: [String] = []
        try generator.generateUnique(
            count: 8,
            accept: { code in
                offered.append(code)
                let fresh = seen.insert(code)
                if fresh { acceptedInOrder.append(code) }
                return fresh
            },
            emit: { emitted.append($0) })
        #expect(emitted.count == 8)
        #expect(Set(emitted).count == 8)
        #expect(emitted == acceptedInOrder)
        #expect(offered.count >= 8)
        #expect(seen.count == 8)
        #expect(emitted.allSatisfy { $0.count == 4 && $0.allSatisfy { "AB".contains($0) } })
    }

    @Test func acceptIsConsultedForCodesTakenElsewhere() throws {
        // A ledger already holds 4 of the 16 codes; they are never emitted.
        let ledger: Set<String> = ["AAAA", "BBBB", "ABAB", "BABA"]
        for seed in UInt64(0)..<20 {
            var generator = try Self.generator(.seeded(seed), count: 8, length: 4, alphabet: "AB")
            var seen = UniqueCodeSet(expectedCount: 8)
            var emitted: [String] = []
            try generator.generateUnique(
                count: 8, accept: { !ledger.contains($0) && seen.insert($0) }, emit: { emitted.append($0) })
            #expect(Set(emitted).count == 8)
            #expect(Set(emitted).isDisjoint(with: ledger))
        }
    }

    @Test func givesUpWhenTheSpaceIsExhausted() throws {
        var generator = try Self.generator(.seeded(3), count: 8, length: 4, alphabet: "AB")
        var offers = 0
        #expect(throws: CodeGenerationError.spaceExhausted(accepted: 0, count: 3)) {
            try generator.generateUnique(
                count: 3,
                accept: { _ in
                    offers += 1
                    return false
                }, emit: { _ in })
        }
        #expect(offers == CodeGenerator.maximumConsecutiveRefusals)

        // Refusals count in a row: two accepted codes, then only refusals.
        var accepted = 0
        var emitted: [String] = []
        #expect(throws: CodeGenerationError.spaceExhausted(accepted: 2, count: 5)) {
            try generator.generateUnique(
                count: 5,
                accept: { _ in
                    accepted += 1
                    return accepted <= 2
                }, emit: { emitted.append($0) })
        }
        #expect(emitted.count == 2)
    }

    @Test func acceptAndEmitErrorsPropagate() throws {
        struct Stop: Error, Equatable {}
        var generator = try Self.generator(.seeded(5), count: 10)
        #expect(throws: Stop()) {
            try generator.generateUnique(count: 10, accept: { _ in throw Stop() }, emit: { _ in })
        }
        #expect(throws: Stop()) {
            try generator.generateUnique(count: 10, accept: { _ in true }, emit: { _ in throw Stop() })
        }
        var none: [String] = []
        try generator.generateUnique(count: 0, accept: { _ in true }, emit: { none.append($0) })
        #expect(none.isEmpty)
    }

    @Test func uniqueCodeSetRemembersCodes() {
        var set = UniqueCodeSet(expectedCount: 2)
        let inserted = ["ABC", "ABC", "ABD", "ABE"].map { set.insert($0) }  // more than expected is fine
        #expect(inserted == [true, false, true, true])
        #expect(set.contains("ABD") && !set.contains("abd"))
        #expect(set.count == 3)
        var empty = UniqueCodeSet(expectedCount: -1)
        let insertedIntoEmpty = empty.insert("X")
        #expect(insertedIntoEmpty)
    }

    @Test func uniqueCodeSetWithASharedPrefixKeepsEveryCodeApart() {
        var set = UniqueCodeSet(expectedCount: 4, sharedPrefix: "SPRING")
        let codes = [
            "SPRINGAB", "SPRINGAB", "AB", "SPRING", "", "SPRINGSPRINGAB", "SPRINGABC", "SPRIN", "SPRING\u{0}AB",
        ]
        let inserted = codes.map { set.insert($0) }
        #expect(inserted == [true, false, true, true, true, true, true, true, true])
        let insertedWithoutPrefix = set.insert("\u{0}AB")
        #expect(insertedWithoutPrefix)
        #expect(set.contains("SPRINGAB") && set.contains("AB") && set.contains("SPRING") && set.contains(""))
        #expect(!set.contains("SPRINGSPRING") && !set.contains("A") && !set.contains("SPRINGA"))
        #expect(set.count == 9)
    }

    // MARK: - Errors

    @Test(arguments: [
        (CodeGenerationSpec(count: 1, alphabet: ""), CodeGenerationError.alphabetTooShort(count: 0)),
        (CodeGenerationSpec(count: 1, alphabet: "A"), .alphabetTooShort(count: 1)),
        (CodeGenerationSpec(count: 1, alphabet: "ABA"), .alphabetCharacterRepeated("A")),
        (CodeGenerationSpec(count: 1, alphabet: "ABc"), .alphabetCharacterNotAllowed("c")),
        (CodeGenerationSpec(count: 1, alphabet: "AB-"), .alphabetCharacterNotAllowed("-")),
        (CodeGenerationSpec(count: 1, alphabet: "AB C"), .alphabetCharacterNotAllowed(" ")),
        (CodeGenerationSpec(count: 1, alphabet: "ÀB"), .alphabetCharacterNotAllowed("À")),
        (CodeGenerationSpec(count: 1, alphabet: "AB２"), .alphabetCharacterNotAllowed("２")),
        (CodeGenerationSpec(count: 1, prefix: "vip"), .prefixCharacterNotAllowed("v")),
        (CodeGenerationSpec(count: 1, prefix: "VIP-"), .prefixCharacterNotAllowed("-")),
        (CodeGenerationSpec(count: 1, prefix: "VIP\n"), .prefixCharacterNotAllowed("\n")),
        (CodeGenerationSpec(count: 1, length: 0), .lengthTooShort(0)),
        (CodeGenerationSpec(count: 1, length: -3), .lengthTooShort(-3)),
        (CodeGenerationSpec(count: 1, length: 65), .codeTooLong(prefixLength: 0, length: 65)),
        (
            CodeGenerationSpec(count: 1, prefix: String(repeating: "A", count: 60), length: 5),
            .codeTooLong(prefixLength: 60, length: 5)
        ),
        (CodeGenerationSpec(count: -1), .countNegative(-1)),
        (CodeGenerationSpec(count: 9, length: 4, alphabet: "AB"), .countTooLarge(count: 9, maximum: 8)),
        (CodeGenerationSpec(count: 2, length: 1, alphabet: "ABC"), .countTooLarge(count: 2, maximum: 1)),
    ])
    func invalidSpecsAreRejected(spec: CodeGenerationSpec, error: CodeGenerationError) throws {
        #expect(throws: error) { try CodeGenerator.validate(spec) }
        #expect(throws: error) { _ = try CodeGenerator(spec: spec, random: .seeded(1)) }
        #expect(throws: error) { _ = try CodeGenerator(spec: spec, random: .system) }
    }

    @Test func limitsAreInclusive() throws {
        try CodeGenerator.validate(CodeGenerationSpec(count: 8, length: 4, alphabet: "AB"))
        try CodeGenerator.validate(CodeGenerationSpec(count: 0, length: 1, alphabet: "AB"))
        try CodeGenerator.validate(CodeGenerationSpec(count: 1, prefix: String(repeating: "9", count: 63), length: 1))
        try CodeGenerator.validate(
            CodeGenerationSpec(count: 1, length: 64, alphabet: "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        // 31^64 overflows Int: the space saturates instead of trapping.
        let huge = try Self.generator(.seeded(1), length: 64)
        #expect(huge.maximumUniqueCount == Int.max / 2)
        #expect(try Self.generator(.seeded(1), length: 2).maximumUniqueCount == 31 * 31 / 2)
    }

    @Test func generateUniqueChecksItsCount() throws {
        var generator = try Self.generator(.seeded(1), count: 1, length: 4, alphabet: "AB")
        #expect(throws: CodeGenerationError.countTooLarge(count: 9, maximum: 8)) {
            try generator.generateUnique(count: 9, accept: { _ in true }, emit: { _ in })
        }
        #expect(throws: CodeGenerationError.countNegative(-2)) {
            try generator.generateUnique(count: -2, accept: { _ in true }, emit: { _ in })
        }
    }

    @Test func countsAboveTheMaximumAreRefusedBeforeDrawing() throws {
        let maximum = CodeGenerator.maximumCount
        for count in [maximum + 1, 1_000_000_000_000, Int.max] {
            let error = CodeGenerationError.countAboveMaximum(count: count, maximum: maximum)
            #expect(throws: error) { _ = try Self.generator(.seeded(1), count: count, length: 20) }
            var generator = try Self.generator(.seeded(1), count: 1, length: 20)
            var offered = 0
            #expect(throws: error) {
                try generator.generateUnique(
                    count: count,
                    accept: { _ in
                        offered += 1
                        return true
                    }, emit: { _ in })
            }
            #expect(offered == 0)
        }
        try CodeGenerator.validate(CodeGenerationSpec(count: maximum, length: 12))
    }

    @Test func errorMessagesNameTheFieldAndWhatIsAllowed() {
        let cases: [(CodeGenerationError, [String])] = [
            (.alphabetTooShort(count: 1), ["alphabet:", "1 distinct character;", "at least 2"]),
            (.alphabetCharacterNotAllowed("c"), ["alphabet:", "\"c\"", "A-Z", "0-9", "did you mean \"C\"?"]),
            (.alphabetCharacterNotAllowed("À"), ["alphabet:", "U+00C0", "A-Z"]),
            (.alphabetCharacterNotAllowed(" "), ["alphabet:", "a space"]),
            (.alphabetCharacterRepeated("A"), ["alphabet:", "\"A\"", "more than once"]),
            (.prefixCharacterNotAllowed("\n"), ["prefix:", "U+000A", "A-Z"]),
            (.lengthTooShort(0), ["length:", "0", "at least 1"]),
            (.codeTooLong(prefixLength: 60, length: 5), ["prefix and length:", "65", "at most 64"]),
            (
                .codeTooLong(prefixLength: 3, length: .max),
                ["prefix and length:", "more than 64 characters", "length \(Int.max)", "length of at most 61"]
            ),
            (
                .countAboveMaximum(count: 100_000_001, maximum: 100_000_000),
                ["count:", "100,000,001", "at most 100,000,000"]
            ),
            (.countNegative(-1), ["count:", "-1", "0 or more"]),
            (.countTooLarge(count: 9, maximum: 8), ["count:", "9", "at most 8", "longer length"]),
            (
                .randomSourceUnreadable(path: "/dev/urandom", reason: "Permission denied"),
                ["random source:", "/dev/urandom", "Permission denied", "no weaker fallback"]
            ),
            (.spaceExhausted(accepted: 2, count: 5), ["count:", "1000", "2 of 5", "longer length"]),
        ]
        for (error, fragments) in cases {
            let message = error.errorDescription ?? ""
            for fragment in fragments {
                #expect(message.contains(fragment), "\(message) lacks \(fragment)")
            }
        }
    }
}
