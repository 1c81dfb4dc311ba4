import OfferCodes
import Testing

/// ``ExportRecipient/list(csv:)``: a recipients file is CSV with RFC 4180 quoting, and every bad
/// line is reported by its line number.
@Suite("Recipients CSV")
struct RecipientCSVTests {
    static func list(_ text: String) throws(ExportError) -> [ExportRecipient] {
        try ExportRecipient.list(csv: Array(text.utf8))
    }

    @Test func quotedFieldsHoldCommasAndQuotes() throws {
        let recipients = try Self.list(
            "\u{FEFF}\"Wang, Fang\",zh-Hans\r\n Ada , ja \n\n\"Say \"\"hi\"\"\"\nKim,\n\"Bo\",\"ko\"")
        #expect(
            recipients == [
                ExportRecipient(name: "Wang, Fang", language: "zh-Hans"), ExportRecipient(name: "Ada", language: "ja"),
                ExportRecipient(name: #"Say "hi""#), ExportRecipient(name: "Kim"),
                ExportRecipient(name: "Bo", language: "ko"),
            ])
        #expect(try Self.list("").isEmpty)
    }

    @Test(arguments: [
        ("A\n\"Wang, Fang,zh-Hans", 2, "never closed"),
        ("\"Wang\" Fang", 1, "after a closing double quote"),
        ("A\nB\nWang, Fang,zh-Hans", 3, "3 fields"),
        ("A\n ,ja", 2, "empty name"),
        ("A\nB,fr", 2, "\"fr\""),
    ])
    func badLinesAreNamed(text: String, line: Int, words: String) throws {
        do {
            _ = try Self.list(text)
            Issue.record("\(text.debugDescription) was accepted")
        } catch {
            guard case .malformedRecipientLine(let reported, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reported == line)
            #expect(error.localizedDescription.contains("line \(line)"))
            #expect(error.localizedDescription.contains(words), "\(error.localizedDescription)")
        }
    }

    @Test func invalidUTF8IsNamedByLine() {
        #expect(throws: ExportError.self) { try ExportRecipient.list(csv: Array("Ada\n".utf8) + [0xFF, 0x0A]) }
        do {
            _ = try ExportRecipient.list(csv: Array("Ada\n".utf8) + [0xFF, 0x0A])
        } catch {
            #expect(error.localizedDescription.contains("line 2") && error.localizedDescription.contains("UTF-8"))
        }
    }
}
