import Foundation
import Testing

@testable import OfferCodes

@Suite("Unique code stream")
struct UniqueCodeStreamTests {
    private static let alphabet = CodeGenerationSpec.defaultAlphabet

    private static func stream(
        _ random: CodeRandomSource, count: Int, prefix: String = "", length: Int = 10, alphabet: String = alphabet
    ) throws -> UniqueCodeStream {
        try UniqueCodeStream(
            spec: CodeGenerationSpec(count: count, prefix: prefix, length: length, alphabet: alphabet), random: random)
    }

    private static func all(_ stream: UniqueCodeStream) throws -> [String] {
        var codes: [String] = []
        while let code = try stream.next() { codes.append(code) }
        return codes
    }

    // MARK: - Uniqueness

    @Test(arguments: [CodeRandomSource.system, .seeded(1), .seeded(2), .seeded(3)])
    func fillsHalfOfASmallSpaceWithDistinctCodes(random: CodeRandomSource) throws {
        // "AB" and 10 characters: 1,024 codes, 512 of them allowed; the permutation covers the
        // whole space (2^10, no cycle-walking).
        let stream = try Self.stream(random, count: 512, length: 10, alphabet: "AB")
        #expect(stream.permutedLength == 10)
        let codes = try Self.all(stream)
        #expect(codes.count == 512)
        #expect(Set(codes).count == 512, "codes repeat")
        #expect(codes.allSatisfy { $0.count == 10 && $0.allSatisfy { "AB".contains($0) } })
        #expect(stream.produced == 512)
        #expect(try stream.next() == nil)
        #expect(try stream.next() == nil)
    }

    @Test(arguments: [CodeRandomSource.system, .seeded(4)])
    func cycleWalkingDomainsGiveDistinctCodes(random: CodeRandomSource) throws {
        // 3^5 = 243 (walks in 0..<256) and 3^7 = 2,187 (in 0..<4,096): half of each, rounded down.
        for (length, count) in [(5, 121), (7, 1093)] {
            let codes = try Self.all(try Self.stream(random, count: count, length: length, alphabet: "ABC"))
            #expect(codes.count == count)
            #expect(Set(codes).count == count, "length \(length): codes repeat")
            #expect(codes.allSatisfy { $0.count == length && $0.allSatisfy { "ABC".contains($0) } })
        }
    }

    @Test func codesLongerThanThePermutationKeepItsUniqueness() throws {
        // 31^12 <= 2^62 < 31^13: 12 permuted characters, then 8 drawn at random.
        let stream = try Self.stream(.seeded(11), count: 50_000, prefix: "VIP", length: 20)
        #expect(stream.permutedLength == 12)
        let codes = try Self.all(stream)
        #expect(Set(codes).count == 50_000)
        let permutedParts: Set<Substring> = Set(
            codes.map { (code: String) -> Substring in code.dropFirst(3).prefix(12) })
        #expect(permutedParts.count == 50_000, "the permuted part alone is unique")
        #expect(codes.allSatisfy { $0.count == 23 && $0.hasPrefix("VIP") })
        // 2 characters: 62 permuted bits of 64.
        let binary = try Self.stream(.system, count: 20_000, length: 64, alphabet: "01")
        #expect(binary.permutedLength == 62)
        #expect(Set(try Self.all(binary)).count == 20_000)
        // 36 characters: 36^11 <= 2^62 < 36^12.
        let wide = try Self.stream(.system, count: 1, length: 64, alphabet: "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        #expect(wide.permutedLength == 11)
        #expect(try wide.next()?.count == 64)
    }

    // MARK: - Reproducibility

    @Test func seededCodesMatchTheGoldenList() throws {
        // Computed by an independent Python transcription of SplitMix64, xoshiro256** (the key is
        // its first two outputs), SipHash-2-4, the 10-round Feistel network with cycle-walking,
        // the base-n digits and the rejection rule for the characters after them.
        #expect(
            try Self.all(try Self.stream(.seeded(20_270_301), count: 5)) == [
                "GMF9K5BBEA", "3XEFDNY4S9", "7KTTB7KM7D", "4V3T72348X", "N73V3RR38E",
            ])
        #expect(
            try Self.all(try Self.stream(.seeded(20_270_301), count: 3, prefix: "VIP", length: 20)) == [
                "VIP25TDUHYBVU7D24J6GFJZ", "VIPASCWGPR8UZQK8Q3F9XDJ", "VIPGT9HSGMUUKFWETGQ69FU",
            ])
        #expect(
            try Self.all(try Self.stream(.seeded(7), count: 6, length: 5, alphabet: "ABC")) == [
                "CBCAC", "CACAB", "BCAAB", "AAACC", "CABCB", "CAAAA",
            ])
    }

    @Test func sameSeedGivesSameCodesAndOtherSeedsOrTheSystemSourceDiffer() throws {
        let codes = try Self.all(try Self.stream(.seeded(42), count: 1000, length: 12))
        #expect(try Self.all(try Self.stream(.seeded(42), count: 1000, length: 12)) == codes)
        let other = try Self.all(try Self.stream(.seeded(43), count: 1000, length: 12))
        #expect(Set(other).isDisjoint(with: codes))
        let system = try Self.all(try Self.stream(.system, count: 1000, length: 12))
        let systemAgain = try Self.all(try Self.stream(.system, count: 1000, length: 12))
        #expect(Set(system).isDisjoint(with: codes) && Set(system).isDisjoint(with: systemAgain))
    }

    // MARK: - Distribution

    /// Pearson's chi-square statistic of the characters at each position against a uniform
    /// distribution over `alphabet`.
    private static func chiSquarePerPosition(_ codes: [String], alphabet: String) -> [Double] {
        let characters = codes.map(Array.init)
        let length = characters.first?.count ?? 0
        let expected = Double(codes.count) / Double(alphabet.count)
        return (0..<length).map { position in
            var counts: [Character: Int] = [:]
            for code in characters { counts[code[position], default: 0] += 1 }
            #expect(Set(counts.keys).isSubset(of: Set(alphabet)), "characters outside the alphabet")
            return alphabet.reduce(0.0) { sum, character in
                let difference = Double(counts[character] ?? 0) - expected
                return sum + difference * difference / expected
            }
        }
    }

    @Test(arguments: [alphabet, "ABCDEFGHJKLMNPQRSTUVWXYZ23456"])
    func seededCharactersAreUniformAtEveryPosition(alphabet: String) throws {
        // 20,000 codes of 20 characters: 12 from the permutation (here 29^12 or 31^12, cycle-walked
        // in 2^59 or 2^60), 8 drawn. With 28-30 degrees of freedom the statistic stays near 30; 80
        // is beyond chance (p < 1e-6) at any of the 20 positions. A permutation that kept its input
        // (0, 1, 2, ...) would put one character in each of the first positions.
        let codes = try Self.all(try Self.stream(.seeded(2027), count: 20_000, length: 20, alphabet: alphabet))
        for (position, statistic) in Self.chiSquarePerPosition(codes, alphabet: alphabet).enumerated() {
            #expect(statistic < 80, "position \(position): chi-square \(statistic)")
        }
    }

    @Test func systemCharactersAreUniformAtEveryPosition() throws {
        // A whole small space: 31^4 = 923,521 codes, 20,000 of them; then 2^10 with half of it.
        let codes = try Self.all(try Self.stream(.system, count: 20_000, length: 4))
        for (position, statistic) in Self.chiSquarePerPosition(codes, alphabet: Self.alphabet).enumerated() {
            #expect(statistic < 100, "position \(position): chi-square \(statistic)")  // p < 1e-9 by chance
        }
        let binary = try Self.all(try Self.stream(.system, count: 512, length: 10, alphabet: "AB"))
        for (position, statistic) in Self.chiSquarePerPosition(binary, alphabet: "AB").enumerated() {
            #expect(statistic < 40, "position \(position): chi-square \(statistic)")  // 1 degree of freedom
        }
    }

    // MARK: - Limits and errors

    @Test func countsAreBoundedBeforeAnythingIsAllocated() throws {
        let maximum = CodeGenerator.maximumCount
        #expect(maximum == 100_000_000)
        for count in [maximum + 1, 1_000_000_000_000, Int.max] {
            let error = CodeGenerationError.countAboveMaximum(count: count, maximum: maximum)
            #expect(throws: error) { _ = try Self.stream(.system, count: count, length: 20) }
            #expect(throws: error) { _ = try Self.stream(.seeded(1), count: count, length: 20) }
            // The bound comes first, even where half the space is smaller too.
            #expect(throws: error) { _ = try Self.stream(.seeded(1), count: count, length: 4, alphabet: "AB") }
            #expect(throws: error) {
                try CodeGenerator.validate(CodeGenerationSpec(count: count, length: 20))
            }
        }
        // The maximum itself is accepted and streams its first code (that nothing is allocated per
        // code is measured on the process, by peak memory: CodesGenerateTests, --count 100000000).
        let largest = try Self.stream(.system, count: maximum, length: 12)
        #expect(try largest.next()?.count == 12)
        #expect(throws: CodeGenerationError.countTooLarge(count: 9, maximum: 8)) {
            _ = try Self.stream(.system, count: 9, length: 4, alphabet: "AB")
        }
        #expect(throws: CodeGenerationError.countNegative(-1)) { _ = try Self.stream(.system, count: -1) }
        #expect(throws: CodeGenerationError.alphabetCharacterRepeated("A")) {
            _ = try Self.stream(.system, count: 1, alphabet: "ABA")
        }
        let none = try Self.stream(.seeded(1), count: 0)
        #expect(try none.next() == nil)
        #expect(none.produced == 0)
    }

    @Test func messageNamesTheCountAndTheMaximum() {
        let message =
            CodeGenerationError.countAboveMaximum(count: 1_000_000_000_000, maximum: 100_000_000)
            .errorDescription ?? ""
        for fragment in ["count:", "1,000,000,000,000", "at most 100,000,000"] {
            #expect(message.contains(fragment), "\(message) lacks \(fragment)")
        }
    }

    @Test func unreadableSystemSourceThrowsBeforeTheFirstCode() {
        let spec = CodeGenerationSpec(count: 1)
        let missing = "/nonexistent-offerkit/urandom"
        #expect(throws: CodeGenerationError.randomSourceUnreadable(path: missing, reason: "No such file or directory"))
        {
            _ = try UniqueCodeStream(spec: spec, random: .system, devicePath: missing)
        }
        // /dev/null reads as empty: there is no key.
        #expect(
            throws: CodeGenerationError.randomSourceUnreadable(
                path: "/dev/null", reason: "it returned no bytes (end of file)")
        ) {
            _ = try UniqueCodeStream(spec: spec, random: .system, devicePath: "/dev/null")
        }
    }

    @Test func uniqueCodeSetReservesABoundedCapacity() {
        // Reserving Int.max codes used to trap; now the reservation is capped and the set grows.
        var set = UniqueCodeSet(expectedCount: Int.max)
        let inserted = [set.insert("A"), set.insert("A")]
        #expect(inserted == [true, false])
        #expect(UniqueCodeSet.maximumReservedCount >= CampaignLimits.productionCodesPerQuarter)
    }
}
