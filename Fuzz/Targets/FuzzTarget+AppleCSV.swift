import OfferCodes

extension FuzzTarget {
    /// Parses; every code must be well formed and given once, every problem and the header must
    /// be on a line of the input, in order, and the codes written one a line under a header must
    /// parse back (the header: a first line `CODE` is one, not a code).
    static func fuzzAppleCSV(_ input: [UInt8]) {
        let csv = AppleCodeCSV.parse(input)
        let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        for code in csv.codes {
            check(
                !code.isEmpty && code.utf8.count <= AppleCodeCSV.maximumCodeLength
                    && code.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) },
                "a malformed code was taken: \(code.debugDescription)")
        }
        check(Set(csv.codes).count == csv.codes.count, "a code was taken twice")
        let problemLines = csv.problems.map(\.line)
        check(problemLines == problemLines.sorted(), "problems are not in line order")
        check(problemLines.allSatisfy { (1...lines).contains($0) }, "a problem names a line the input lacks")
        check(csv.headerLine.map { (1...lines).contains($0) } ?? true, "the header is on a line the input lacks")
        check(csv.codes.count + csv.problems.count <= lines, "more codes and problems than lines")
        for problem in csv.problems { _ = problem.description }
        let written = AppleCodeCSV.parse(Array((["Code"] + csv.codes).joined(separator: "\n").utf8))
        check(
            written.codes == csv.codes && written.problems.isEmpty && written.headerLine == 1,
            "the codes, one a line under a header, do not parse back")
    }
}
