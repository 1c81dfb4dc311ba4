import OfferCodes
import Testing

@Suite("Apple one-time-use code CSV")
struct AppleCodeCSVTests {
    private static func parse(_ text: String) -> AppleCodeCSV {
        AppleCodeCSV.parse(Array(text.utf8))
    }

    private static func problem(_ line: Int, _ message: String) -> AppleCodeCSV.Problem {
        AppleCodeCSV.Problem(line: line, message: message)
    }

    // MARK: - Well-formed files

    @Test(arguments: ["A1B2C3D4E5\nZZZZ99\n", "A1B2C3D4E5\nZZZZ99", "A1B2C3D4E5\r\nZZZZ99\r\n", "A1B2C3D4E5\r\nZZZZ99"])
    func readsOneCodePerLine(text: String) {
        let csv = Self.parse(text)
        #expect(csv.codes == ["A1B2C3D4E5", "ZZZZ99"])
        #expect(csv.problems.isEmpty)
        #expect(csv.headerLine == nil)
    }

    @Test func skipsBlankLinesAndKeepsLineNumbers() {
        let csv = Self.parse("\n\r\nAAA111\n   \n\t\nBBB222\n\n\r\n\n")
        #expect(csv.codes == ["AAA111", "BBB222"])
        #expect(csv.problems.isEmpty)
        let numbered = Self.parse("\n\nAAA\n\nbad!\n")
        #expect(numbered.problems.map(\.line) == [5])
    }

    @Test func trimsWhitespaceAndUnquotes() {
        let csv = Self.parse("  AAA111  \n\tBBB222\t\r\n\"CCC333\"\n  \" DDD444 \"  \n\u{00A0}EEE555\u{3000}\n")
        #expect(csv.codes == ["AAA111", "BBB222", "CCC333", "DDD444", "EEE555"])
        #expect(csv.problems.isEmpty)
    }

    @Test func skipsAByteOrderMark() {
        let csv = AppleCodeCSV.parse([0xEF, 0xBB, 0xBF] + Array("AAA111\r\nBBB222\r\n".utf8))
        #expect(csv.codes == ["AAA111", "BBB222"])
        #expect(csv.problems.isEmpty)
        let withHeader = AppleCodeCSV.parse([0xEF, 0xBB, 0xBF] + Array("Code\r\nAAA111\r\n".utf8))
        #expect(withHeader.headerLine == 1)
        #expect(withHeader.codes == ["AAA111"])
        #expect(AppleCodeCSV.parse([0xEF, 0xBB, 0xBF]) == AppleCodeCSV.parse([]))
    }

    @Test func emptyFilesHaveNoCodesAndNoProblems() {
        for text in ["", "\n", "\r\n\r\n", "  \n\t\n"] {
            let csv = Self.parse(text)
            #expect(csv.codes.isEmpty)
            #expect(csv.problems.isEmpty)
            #expect(csv.headerLine == nil)
        }
    }

    @Test func codesMayBeUpTo64Characters() {
        let longest = String(repeating: "Z9", count: 32)
        #expect(Self.parse(longest + "\n").codes == [longest])
        #expect(Self.parse("\"\(longest)\"\n").codes == [longest])
    }

    @Test func roundTripsManyGeneratedCodes() throws {
        var generator = try CodeGenerator(spec: CodeGenerationSpec(count: 50_000, length: 11), random: .seeded(11))
        var seen = UniqueCodeSet(expectedCount: 50_000)
        var codes: [String] = []
        try generator.generateUnique(count: 50_000, accept: { seen.insert($0) }, emit: { codes.append($0) })
        let csv = Self.parse("Code\r\n" + codes.joined(separator: "\r\n") + "\r\n")
        #expect(csv.codes == codes)
        #expect(csv.problems.isEmpty)
        #expect(csv.headerLine == 1)
    }

    // MARK: - Header

    @Test(arguments: ["Code", "code", "Codes", "Offer Code", "\"Code\"", "  \"Offer Code\"  ", "offer_code", "Value"])
    func skipsAHeaderLine(header: String) {
        let csv = Self.parse("\(header)\nAAA111\nBBB222\n")
        #expect(csv.headerLine == 1)
        #expect(csv.codes == ["AAA111", "BBB222"])
        #expect(csv.problems.isEmpty)
    }

    @Test func headerIsTheFirstNonBlankLine() {
        let csv = Self.parse("\r\n \r\nOffer Code\r\nAAA111\r\n")
        #expect(csv.headerLine == 3)
        #expect(csv.codes == ["AAA111"])
    }

    @Test func anUpperCaseColumnNameOnTheFirstLineIsAHeaderNotACode() {
        for header in ["CODE", "Codes", "VALUES", "OFFERCODE", "\"CODE\""] {
            let csv = Self.parse("\(header)\nAAA111\n")
            #expect(csv.headerLine == 1, "\(header)")
            #expect(csv.codes == ["AAA111"], "\(header)")
        }
        // Anywhere else, a line spelled like a code is a code.
        let later = Self.parse("AAA111\nCODE\n")
        #expect(later.headerLine == nil)
        #expect(later.codes == ["AAA111", "CODE"])
    }

    @Test func aFirstLineThatNamesNoColumnIsMalformed() {
        let csv = Self.parse("Expiry Date\nAAA111\n")
        #expect(csv.headerLine == nil)
        #expect(csv.codes == ["AAA111"])
        #expect(csv.problems.map(\.line) == [1])
    }

    @Test func aHeaderLineInTheMiddleIsMalformed() {
        let csv = Self.parse("AAA111\nCode\nBBB222\n")
        #expect(csv.headerLine == nil)
        #expect(csv.codes == ["AAA111", "BBB222"])
        #expect(
            csv.problems == [Self.problem(2, "looks like a column header, which only the first line may be: \"Code\"")])
        let twice = Self.parse("Code\nCode\nAAA111\n")
        #expect(twice.headerLine == 1)
        #expect(twice.problems.map(\.line) == [2])
    }

    // MARK: - Duplicates

    @Test func reportsDuplicatesNamingBothLines() {
        let csv = Self.parse("A1\nB2\nC3\nD4\nE5\nF6\nC3\n\"A1\"\n")
        #expect(csv.codes == ["A1", "B2", "C3", "D4", "E5", "F6"])
        #expect(csv.problems == [Self.problem(7, "repeats line 3: \"C3\""), Self.problem(8, "repeats line 1: \"A1\"")])
        #expect(csv.problems[0].description == "line 7 repeats line 3: \"C3\"")
    }

    @Test func duplicatesCompareCaseInsensitively() {
        let csv = Self.parse("ABC123\nabc123\n")
        #expect(csv.codes == ["ABC123"])
        #expect(
            csv.problems == [
                Self.problem(
                    2,
                    "has lower-case letters: \"abc123\"; codes are upper-case (did you mean \"ABC123\"?); "
                        + "upper-cased it repeats line 1")
            ])
    }

    // MARK: - Malformed lines

    @Test(arguments: [
        ("abc123", "has lower-case letters: \"abc123\"; codes are upper-case (did you mean \"ABC123\"?)"),
        ("AbC123", "has lower-case letters: \"AbC123\"; codes are upper-case (did you mean \"ABC123\"?)"),
        ("AB-123", "has \"-\", which is not A-Z or 0-9: \"AB-123\""),
        ("ab-123", "has \"-\", which is not A-Z or 0-9: \"ab-123\""),
        ("AB 123", "has a space, which is not A-Z or 0-9: \"AB 123\""),
        ("AB\t123", "has a tab, which is not A-Z or 0-9: \"AB\\t123\""),
        ("AB\r123", "has U+000D, which is not A-Z or 0-9: \"AB\\r123\""),
        ("ÀBC123", "has U+00C0 \"À\", which is not A-Z or 0-9: \"ÀBC123\""),
        ("ABC１２３", "has U+FF11 \"１\", which is not A-Z or 0-9: \"ABC１２３\""),
        ("AAA111,BBB222", "has 2 columns; expected one code per line: \"AAA111,BBB222\""),
        ("\"AAA111\",\"BBB222\"", "has 2 columns; expected one code per line: \"\\\"AAA111\\\",\\\"BBB222\\\"\""),
        ("AAA111,", "has 2 columns; expected one code per line: \"AAA111,\""),
        ("AAA111,2027-05-31,PRODUCTION", "has 3 columns; expected one code per line: \"AAA111,2027-05-31,PRODUCTION\""),
        ("\"AAA111", "has a double quote that is never closed: \"\\\"AAA111\""),
        ("\"AAA\"111", "has text after a closing double quote: \"\\\"AAA\\\"111\""),
        ("\"\"", "is an empty quoted value; expected a code"),
        ("\"A,B\"", "has \",\", which is not A-Z or 0-9: \"A,B\""),
        (
            String(repeating: "A", count: 65),
            "is too long (65 characters; at most 64): \"\(String(repeating: "A", count: 48))\"…"
        ),
    ])
    func reportsMalformedLines(line: String, message: String) {
        let csv = Self.parse("GOOD1\n\(line)\nGOOD2\n")
        #expect(csv.codes == ["GOOD1", "GOOD2"])
        #expect(csv.problems == [Self.problem(2, message)])
    }

    @Test func clipsOverlyLongLines() throws {
        let line = "X-" + String(repeating: "Y", count: 10_000)
        let csv = Self.parse(line + "\n")
        let message = try #require(csv.problems.first?.message)
        #expect(message.count < 100)
        #expect(message.hasSuffix("YYY\"…"))
        #expect(message.hasPrefix("is too long (10002 characters; at most 64): \"X-YYY"))
        let wide = Self.parse(String(repeating: "AAA111,", count: 1000) + "\n")
        #expect(try #require(wide.problems.first?.message).count < 110)
    }

    @Test func reportsInvalidUTF8WithoutEchoingIt() {
        let csv = AppleCodeCSV.parse(Array("AAA111\n".utf8) + [0x41, 0xFF, 0x42, 0x0A] + Array("BBB222\n".utf8))
        #expect(csv.codes == ["AAA111", "BBB222"])
        #expect(csv.problems == [Self.problem(2, "is not valid UTF-8; expected one code of A-Z and 0-9")])
        let bareContinuation = AppleCodeCSV.parse([0xC3, 0x0A])
        #expect(bareContinuation.problems.map(\.line) == [1])
    }

    @Test func problemsComeInFileOrder() {
        let csv = Self.parse("Code\nAAA111\nbad\nAAA111\nX,Y\n")
        #expect(csv.headerLine == 1)
        #expect(csv.problems.map(\.line) == [3, 4, 5])
        #expect(csv.codes == ["AAA111"])
    }
}
