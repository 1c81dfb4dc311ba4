import Foundation
import OfferCodes
import OfferJSON
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

@Suite("Code exports")
struct ExportTests {
    typealias Fixtures = ExportFixtures

    /// Offer names that break naive CSV, JSON or HTML handling.
    static let trickyOffers = [
        "Tom & Jerry <VIP> \"Gold\"", "Comma, then more", "Line one\nline two", "Back\\slash and\ttab",
        "Bell \u{07} and NUL-ish \u{01}", "半額キャンペーン 🎉", "'quoted' at start", "CR\r\nLF",
    ]

    // MARK: Redemption links

    @Test func redemptionLinksEncodeEverythingButUnreservedCharacters() {
        #expect(
            RedemptionLink.url(appAppleId: "1234567890", code: "SPRING27")
                == "https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=SPRING27")
        #expect(
            RedemptionLink.url(appAppleId: "12 34", code: "A+B&C=D E%F/é~.-_한")
                == "https://apps.apple.com/redeem?ctx=offercodes&id=12%2034"
                + "&code=A%2BB%26C%3DD%20E%25F%2F%C3%A9~.-_%ED%95%9C")
        #expect(RedemptionLink.percentEncoded("?#[]@!$'()*,;") == "%3F%23%5B%5D%40%21%24%27%28%29%2A%2C%3B")
    }

    // MARK: CSV

    @Test func csvHasAHeaderAndOneCRLFRecordPerCode() throws {
        let text = try Fixtures.export(
            .csv, [Fixtures.code("SPRING27"), Fixtures.code("VIPABCDEFGH", offer: "VIP", expires: nil)])
        #expect(
            text == "code,url,offer,expirationDate\r\n"
                + "SPRING27,https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=SPRING27,"
                + "Spring 2027 half price,2027-05-31\r\n"
                + "VIPABCDEFGH,https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=VIPABCDEFGH,VIP,\r\n")
    }

    @Test func csvRoundTripsTrickyValues() throws {
        let codes = Self.trickyOffers.enumerated().map { index, offer in
            Fixtures.code(index == 0 ? "A+B&C=D E%F\"<é>" : "CODE\(index)", offer: offer)
        }
        let records = try StrictCSV.parse(try Fixtures.export(.csv, codes))
        try #require(records.count == codes.count + 1)
        #expect(records[0] == ["code", "url", "offer", "expirationDate"])
        for (code, record) in zip(codes, records.dropFirst()) {
            #expect(
                record == [
                    code.code, RedemptionLink.url(appAppleId: Fixtures.app.appAppleId, code: code.code), code.offer,
                    "2027-05-31",
                ])
        }
    }

    @Test func csvNeutralisesFormulas() throws {
        let dangerous = ["=HYPERLINK(\"https://evil.example\",\"x\")", "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "＝1+1"]
        let codes = dangerous.map { Fixtures.code("SAFE", offer: $0) } + [Fixtures.code("-ABC", offer: "Plain")]
        let records = try StrictCSV.parse(try Fixtures.export(.csv, codes))
        for (offer, record) in zip(dangerous, records.dropFirst()) {
            #expect(record[2] == "'" + offer)
        }
        #expect(records.last?[0] == "'-ABC")
        #expect(records.last?[2] == "Plain")
        #expect(records.last?[1].hasSuffix("code=-ABC") == true, "links are never prefixed")
    }

    @Test func emptyExportsAreStillValid() throws {
        #expect(try Fixtures.export(.csv, []) == "code,url,offer,expirationDate\r\n")
        let json = try Fixtures.export(.json, [])
        #expect(try JSONValue.parse(Array(json.utf8)) == .array([]))
    }

    // MARK: JSON

    @Test func jsonIsValidWithTrickyOfferNames() throws {
        let codes = Self.trickyOffers.enumerated().map { index, offer in
            Fixtures.code(
                "CODE\(index)", offer: offer, expires: index.isMultiple(of: 2) ? Fixtures.expiry : nil,
                redemptionLimit: index + 1, environment: index == 3 ? .sandbox : .production)
        }
        let text = try Fixtures.export(.json, codes)
        let parsed = try JSONValue.parse(Array(text.utf8))
        guard case .array(let items) = parsed else {
            Issue.record("expected a JSON array, got \(parsed.typeName)")
            return
        }
        try #require(items.count == codes.count)
        for (code, item) in zip(codes, items) {
            #expect(item.keys == ["code", "url", "offer", "expirationDate", "redemptionLimit", "environment"])
            #expect(item["code"] == .string(code.code))
            #expect(item["url"] == .string(RedemptionLink.url(appAppleId: Fixtures.app.appAppleId, code: code.code)))
            #expect(item["offer"] == .string(code.offer))
            #expect(item["expirationDate"] == (code.expirationDate.map { .string($0.description) } ?? .null))
            #expect(item["redemptionLimit"]?.int64 == Int64(code.redemptionLimit))
            #expect(item["environment"] == .string(code.environment.rawValue))
        }
    }

    // MARK: Messages

    /// How each language's built-in message writes 2027-05-31.
    static let expiryText = ["en": "2027-05-31", "ja": "2027年5月31日", "ko": "2027년 5월 31일", "zh-Hans": "2027年5月31日"]

    /// The messages name the offer by its title, never by its reference name (which used to be
    /// printed: issue 16 forbids it).
    @Test(arguments: CodeExporter.languages)
    func messagesHoldTheCodeLinkTitleAndExpiry(language: String) throws {
        let offer = "Internal reference name"
        let title = "Tom & Jerry <VIP> \"Gold\""
        let codes = [Fixtures.code("A+B&C", offer: offer), Fixtures.code("NOEXPIRY", offer: offer, expires: nil)]
        let records = try StrictCSV.parse(
            try Fixtures.export(
                .messages(language: language), codes, displayNames: [offer: OfferDisplayName([language: title])]))
        try #require(records.count == 3)
        #expect(records[0] == ["code", "language", "message"])
        let expiry = try #require(Self.expiryText[language])
        for (code, record) in zip(codes, records.dropFirst()) {
            #expect(record[0] == code.code)
            #expect(record[1] == language)
            let message = record[2]
            #expect(message.contains(code.code))
            #expect(message.contains(RedemptionLink.url(appAppleId: Fixtures.app.appAppleId, code: code.code)))
            #expect(message.contains(title), "no HTML escaping: \(message)")
            #expect(!message.contains(offer), "\(message)")
            #expect(message.contains(expiry) == (code.expirationDate != nil), "\(message)")
            #expect(!message.hasSuffix("\n"))
        }
        #expect(records[1][2].contains("A%2BB%26C"))
    }

    @Test func recipientsGetOneCodeEachInOrderAndTheirOwnLanguage() throws {
        let codes = (1...5).map { Fixtures.code("CODE\($0)") }
        let recipients = [
            ExportRecipient(name: "Ada"), ExportRecipient(name: "さくら", language: "ja"),
            ExportRecipient(name: "=Mallory", language: "ko"), ExportRecipient(name: "小明", language: "zh_hans"),
        ]
        let records = try StrictCSV.parse(
            try Fixtures.export(.messages(language: "en"), codes, recipients: recipients))
        try #require(records.count == recipients.count + 1)
        #expect(records[0] == ["name", "code", "language", "message", "recipient", "assignedAt"])
        #expect(records.dropFirst().map { $0[0] } == ["Ada", "さくら", "'=Mallory", "小明"])
        #expect(records.dropFirst().map { $0[4] } == ["Ada", "さくら", "'=Mallory", "小明"], "the recipient ids")
        #expect(records.dropFirst().allSatisfy { $0[5] == "2027-01-15T08:00:00.125Z" })
        #expect(records.dropFirst().map { $0[1] } == ["CODE1", "CODE2", "CODE3", "CODE4"])
        #expect(records.dropFirst().map { $0[2] } == ["en", "ja", "ko", "zh-Hans"])
        #expect(records[1][3].hasPrefix("Hi Ada,"))
        #expect(records[2][3].hasPrefix("さくら様"))
        #expect(records[3][3].hasPrefix("'=Mallory님"), "a message that starts like a formula is guarded too")
        #expect(records[4][3].hasPrefix("小明，您好"))
        for record in records.dropFirst() {
            #expect(record[3].contains(record[1]))
        }
    }

    @Test func recipientsGetTheLedgersCodesAndTooFewCodesWriteNothing() async throws {
        let ledger = try await CodeLedger.inMemory()
        let campaign = LedgerFixtures.campaign("spring", offers: ["Half"])
        try await LedgerFixtures.record(
            ledger, LedgerFixtures.batch("spring", "Half", codeCount: 2), of: campaign, codes: ["ONE", "TWO"])
        let scope = AssignmentScope(campaign: "spring", offer: "Half", today: CalendarDate("2027-02-01")!)
        let exporter = try CodeExporter(format: .messages(language: "en"), app: Fixtures.app)
        /// Hands out codes to the list, then renders the rows of what the ledger holds for it.
        func export(_ names: [String]) async throws -> String {
            let people = try exporter.checked(names.map { ExportRecipient(name: $0) })
            try await ledger.assign(recipients: people.map(\.id), scope: scope, channel: .export)
            let held = try await LedgerFixtures.held(ledger, people.map(\.id), scope: scope)
            var written = ""
            try exporter.export(
                to: { written += $0 },
                forEachAssignment: { row in
                    for (assignment, person) in zip(held, people) { try row(try #require(assignment), person) }
                })
            return written
        }
        var written = "untouched"
        // Both codes would have gone to the list's first two recipients (none is kept).
        await #expect(
            throws: LedgerError.noCodeLeft(
                campaign: "spring", offer: "Half", environment: .production, assigned: 2, stored: 2)
        ) {
            written = try await export(["Ada", "Grace", "Alan"])
        }
        #expect(written == "untouched")
        let records = try StrictCSV.parse(try await export(["Ada", "Grace"]))
        #expect(
            records.dropFirst().map { [$0[0], $0[1], $0[4]] } == [["Ada", "ONE", "Ada"], ["Grace", "TWO", "Grace"]])
        #expect(records.dropFirst().allSatisfy { $0[3].contains("Hi \($0[0]),") })
    }

    @Test func csvAndJSONRowsCarryTheRecipientAndWhenTheCodeWasAssigned() throws {
        let codes = [Fixtures.code("ONE"), Fixtures.code("TWO", expires: nil)]
        let people = [ExportRecipient(id: "=user-1", name: nil), ExportRecipient(id: "user-2", name: "Grace")]
        let csv = try StrictCSV.parse(try Fixtures.export(.csv, codes, recipients: people))
        #expect(csv[0] == ["code", "url", "offer", "expirationDate", "recipient", "assignedAt"])
        #expect(csv.dropFirst().map { $0[4] } == ["'=user-1", "user-2"])
        #expect(csv.dropFirst().allSatisfy { $0[5] == "2027-01-15T08:00:00.125Z" })
        let json = try JSONValue.parse(Array(try Fixtures.export(.json, codes, recipients: people).utf8))
        guard case .array(let items) = json else {
            Issue.record("expected a JSON array, got \(json.typeName)")
            return
        }
        #expect(
            items.map(\.keys)
                == Array(
                    repeating: [
                        "code", "url", "offer", "expirationDate", "redemptionLimit", "environment", "recipient",
                        "assignedAt",
                    ], count: 2))
        #expect(items.map { $0["recipient"] } == [.string("=user-1"), .string("user-2")])
        #expect(items.allSatisfy { $0["assignedAt"] == .string("2027-01-15T08:00:00.125Z") })
        // A recipient without a name is greeted without one.
        let messages = try StrictCSV.parse(try Fixtures.export(.messages(language: "en"), codes, recipients: people))
        #expect(messages.dropFirst().map { $0[0] } == ["", "Grace"])
        #expect(messages[1][3].hasPrefix("Hi there,") && messages[2][3].hasPrefix("Hi Grace,"))
    }

    @Test func badRecipientsAndLanguagesAreReported() throws {
        let codes = [Fixtures.code("ONE"), Fixtures.code("TWO")]
        #expect(throws: ExportError.unsupportedLanguage("fr")) {
            try CodeExporter(format: .messages(language: "fr"), app: Fixtures.app)
        }
        #expect(throws: ExportError.blankRecipientName(recipient: 2)) {
            try Fixtures.export(.messages(language: "en"), codes, recipients: [.init(name: "Ada"), .init(name: " ")])
        }
        #expect(throws: ExportError.unsupportedRecipientLanguage(recipient: 1, language: "de")) {
            try Fixtures.export(.messages(language: "en"), codes, recipients: [.init(name: "Ada", language: "de")])
        }
        #expect(throws: ExportError.blankRecipientName(recipient: 1)) {
            try Fixtures.export(.csv, codes, recipients: [.init(id: "user-1", name: "  ")])
        }
        #expect(throws: ExportError.noRecipients) {
            try Fixtures.export(.messages(language: "en"), codes, recipients: [])
        }
        let lenient = try CodeExporter(format: .messages(language: "ZH_hans"), app: Fixtures.app)
        #expect(lenient.format == .messages(language: "zh-Hans"))
    }

    // MARK: Templates

    @Test func aTemplateFolderOverridesSomeFilesAndFallsBackForTheRest() throws {
        try Fixtures.withTemporaryFolder { folder in
            try "{{code}};{{offer}};{{#expiration}}{{day}}/{{month}}/{{year}}{{/expiration}}\n"
                .write(to: folder.appendingPathComponent("csv-row.mustache"), atomically: true, encoding: .utf8)
            let text = try Fixtures.export(
                .csv, [Fixtures.code("ONE", offer: "<A & \"B\">")], templates: .directory(folder))
            #expect(text == "code,url,offer,expirationDate\r\nONE;<A & \"B\">;31/5/2027\r\n")
        }
    }

    @Test func aBrokenTemplateNamesTheFileAndMustachesError() throws {
        try Fixtures.withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("message.ja.mustache")
            try "{{#name}}\n{{name}}様\n{{/nmae}}\n".write(to: file, atomically: true, encoding: .utf8)
            let error = try #require(throws: ExportError.self) {
                try CodeExporter(templates: .directory(folder), format: .messages(language: "en"), app: Fixtures.app)
            }
            guard case .malformedTemplate(let name, let line, _, let message) = error else {
                Issue.record("expected a malformed template, got \(error)")
                return
            }
            #expect(name == file.path)
            #expect(line == 3)
            #expect(message.contains("sectionCloseNameIncorrect"))
            #expect(error.localizedDescription.contains(file.path))
            // The folder's other formats do not need the broken file.
            _ = try CodeExporter(templates: .directory(folder), format: .csv, app: Fixtures.app)
        }
    }

    @Test func aMissingTemplateFolderIsReported() {
        let folder = URL(fileURLWithPath: "/nonexistent/offerkit-templates")
        #expect(throws: ExportError.templateDirectoryNotFound(path: folder.path)) {
            try CodeExporter(templates: .directory(folder), format: .json, app: Fixtures.app)
        }
    }

    @Test func builtInTemplatesEqualTheTemplateFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.templatesFolder.path)
            .filter { $0.hasSuffix(".mustache") }
        let hint = "run templates/embed-templates to regenerate Sources/OfferCodes/Export/BuiltInTemplates.swift"
        #expect(Set(files) == Set(ExportTemplates.fileNames), "\(hint)")
        for name in files {
            let text = try String(contentsOf: Fixtures.templatesFolder.appendingPathComponent(name), encoding: .utf8)
            #expect(ExportTemplates.builtInText(named: name) == text, "\(name) differs: \(hint)")
        }
    }

    // MARK: Streaming

    @Test func largeExportsStreamOneRecordAtATime() throws {
        let codes = GeneratedCodes(count: 50_000)
        let exporter = try CodeExporter(format: .csv, app: Fixtures.app)
        var writes = 0
        var bytes = 0
        var drawnAtFirstRecord = 0
        var last = ""
        try exporter.export(codes: codes) { piece in
            writes += 1
            bytes += piece.utf8.count
            if writes == 2 {
                drawnAtFirstRecord = codes.counter.drawn
            }
            last = piece
        }
        #expect(writes == 50_001)
        #expect(drawnAtFirstRecord <= 2, "the first record is written before more codes are read")
        #expect(last.hasPrefix("CODE50000,") && last.hasSuffix("\r\n"))
        #expect(bytes > 50_000 * 60)
    }

    @Test func exportsTakeCodesFromACallbackLikeTheLedger() throws {
        let exporter = try CodeExporter(format: .json, app: Fixtures.app)
        var output = ""
        try exporter.export(
            to: { output += $0 },
            forEachCode: { body in
                for index in 1...1_000 {
                    try body(Fixtures.code("CODE\(index)"))
                }
            })
        guard case .array(let items) = try JSONValue.parse(Array(output.utf8)) else {
            Issue.record("expected a JSON array")
            return
        }
        #expect(items.count == 1_000)
        #expect(items.last?["code"] == .string("CODE1000"))
    }
}
