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

    @Test func aHeaderLineNamesTheColumnsInAnyOrder() throws {
        let recipients = try Self.list("\u{FEFF}language, recipient ,name\r\nja,user-1,さくら\n\nen,user-2,\n,user-3\n")
        #expect(
            recipients == [
                ExportRecipient(id: "user-1", name: "さくら", language: "ja"),
                ExportRecipient(id: "user-2", name: nil, language: "en"), ExportRecipient(id: "user-3", name: nil),
            ])
        #expect(try Self.list("recipient\nu1\n\"u,2\"") == [.init(id: "u1", name: nil), .init(id: "u,2", name: nil)])
        // Without a header, the name is the recipient id; a first line that is not all column names is data.
        #expect(try Self.list("Ada,ja") == [ExportRecipient(id: "Ada", name: "Ada", language: "ja")])
        #expect(try Self.list("Recipient") == [ExportRecipient(name: "Recipient")])
    }

    @Test(arguments: [
        ("name,language\nAda,ja", 1, "no recipient column"),
        ("recipient,name\nu1,Ada,ja", 2, "the header names 2"),
        ("recipient,name\nu1,Ada\n,Bob", 3, "empty recipient"),
        ("recipient\n\"a\tb\"", 2, "control character"),
        ("recipient\n" + String(repeating: "x", count: 257), 2, "257 bytes"),
        (String(repeating: "é", count: 129), 1, "258 bytes"),
        ("recipient,language\nu1,fr", 2, "\"fr\""),
    ])
    func badRecipientIdsAndHeadersAreNamed(text: String, line: Int, words: String) throws {
        do {
            _ = try Self.list(text)
            Issue.record("\(text.debugDescription) was accepted")
        } catch {
            guard case .malformedRecipientLine(let reported, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reported == line)
            #expect(error.localizedDescription.contains(words), "\(error.localizedDescription)")
        }
    }

    @Test func aRecipientListedTwiceNamesBothLines() {
        #expect(throws: ExportError.duplicateRecipient(id: "Ada", firstLine: 1, line: 3)) {
            try Self.list("Ada\nBob,ja\nAda,ko")
        }
        #expect(throws: ExportError.duplicateRecipient(id: "u1", firstLine: 2, line: 5)) {
            try Self.list("recipient,name\nu1,Ada\nu2,Ada\n\n u1 ,Bob")
        }
        // Several ids repeated: the earliest repeat is named, with its id's first line.
        #expect(throws: ExportError.duplicateRecipient(id: "b", firstLine: 2, line: 4)) {
            try Self.list("a\nb\nc\nb\na\nb")
        }
        #expect(throws: ExportError.duplicateRecipient(id: "a", firstLine: 1, line: 3)) {
            try Self.list("a\nz\na\nz\na")
        }
        // Canonically equivalent ids are one id (é as one scalar, and as e with a combining accent).
        #expect(throws: ExportError.duplicateRecipient(id: "e\u{301}", firstLine: 1, line: 2)) {
            try Self.list("\u{E9}\ne\u{301}")
        }
        let message = ExportError.duplicateRecipient(id: "u1", firstLine: 2, line: 5).localizedDescription
        #expect(message.contains("line 5") && message.contains("line 2") && message.contains("\"u1\""), "\(message)")
    }
}
