import Testing

@testable import OfferCodes

@Suite("Feistel permutation")
struct FeistelPermutationTests {
    /// Every input of the domain maps to a distinct output inside it.
    private static func expectPermutation(
        _ permutation: FeistelPermutation, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let size = Int(permutation.domainSize)
        var seen = [Bool](repeating: false, count: size)
        for value in 0..<permutation.domainSize {
            let image = Int(permutation.permute(value))
            #expect(image < size, "\(value) -> \(image)", sourceLocation: sourceLocation)
            guard image < size else { return }
            #expect(!seen[image], "\(image) reached twice", sourceLocation: sourceLocation)
            seen[image] = true
        }
        #expect(seen.allSatisfy { $0 }, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        // Powers of 2 (no cycle-walking): even and odd bit widths.
        UInt64(2), 4, 8, 1024, 1 << 15,
        // Cycle-walking: 3^5, 31^3, just above and below a power of 2, 36^3.
        3, 243, 29_791, 1025, 65_535, 46_656,
    ])
    func isAPermutationOfItsDomain(size: UInt64) {
        for key in UInt64(0)..<3 {
            Self.expectPermutation(FeistelPermutation(domainSize: size, k0: key, k1: ~key))
        }
        #expect(FeistelPermutation(domainSize: size, k0: 0, k1: 0).walksCycles == (size & (size - 1) != 0))
    }

    @Test func theKeyChoosesThePermutation() {
        let size: UInt64 = 29_791
        let first = FeistelPermutation(domainSize: size, k0: 1, k1: 2)
        let again = FeistelPermutation(domainSize: size, k0: 1, k1: 2)
        let other = FeistelPermutation(domainSize: size, k0: 1, k1: 3)
        let images = (0..<size).map(first.permute)
        #expect((0..<size).map(again.permute) == images)
        let otherImages = (0..<size).map(other.permute)
        // Two random permutations agree on about one point.
        #expect(zip(images, otherImages).filter { $0 == $1 }.count < 10)
        // Not the identity, nor close to it.
        #expect(images.enumerated().filter { UInt64($0.offset) == $0.element }.count < 10)
    }

    @Test func handlesTheLargestDomain() {
        let permutation = FeistelPermutation(domainSize: FeistelPermutation.maximumDomainSize, k0: 5, k1: 6)
        let images = Set((0..<10_000).map { permutation.permute(UInt64($0)) })
        #expect(images.count == 10_000)
        #expect(images.allSatisfy { $0 < FeistelPermutation.maximumDomainSize })
        // 31^12, the domain of 12 characters of the default alphabet, needs cycle-walking.
        let codes = FeistelPermutation(domainSize: 787_662_783_788_549_761, k0: 5, k1: 6)
        #expect(codes.walksCycles)
        let codeImages: Set<UInt64> = Set((0..<10_000).map { (index: Int) -> UInt64 in codes.permute(UInt64(index)) })
        #expect(codeImages.count == 10_000)
    }
}
