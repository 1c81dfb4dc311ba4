import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes export`: CSV, JSON and messages from the ledger, with links, recipients and templates.
@Suite("offerkit codes export")
struct CodesExportTests {
    /// An offer whose name a spreadsheet would run as a formula, and which needs CSV quoting.
    static let formulaOffer = #"=Gems "deluxe", 2x"#

    /// ``CodesImportTests/offers`` plus the formula-named offer, generated, with Apple's codes
    /// imported for the gem pack: 1 + 20 + 1 custom codes, then 3 one-time-use codes.
    static func setUp() async throws -> (files: CampaignFiles, campaign: String) {
        let files = try CampaignFiles.make()
        let offers =
            CodesImportTests.offers + [CampaignFiles.offer(formulaOffer, custom: [CampaignFiles.given(["GEMS2X"])])]
        let campaign = try files.write(CampaignFiles.campaign(name: "exports", offers: offers), to: "campaign.json")
        let generate = try await files.run("generate", campaign)
        #expect(generate.status == 0, "\(generate)")
        let imported = try await CodesImportTests.importCSV(
            CodesImportTests.appleCSV, offer: CodesImportTests.gemPack, files: files, campaign: campaign)
        #expect(imported.status == 0, "\(imported)")
        return (files, campaign)
    }

    @Test func csvHasHeaderLinksAndQuotedFields() async throws {
        let (files, campaign) = try await Self.setUp()
        defer { files.remove() }
        let result = try await files.run("export", campaign)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.hasPrefix("code,url,offer,expirationDate\r\n"))
        #expect(result.stdout.hasSuffix("\r\n"))
        #expect(!result.stdout.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "records end with CRLF")
        let records = CampaignFiles.csvRecords(result.stdout)
        #expect(records.first == ["code", "url", "offer", "expirationDate"])
        let rows = Array(records.dropFirst())
        #expect(rows.count == 25)
        #expect(rows.allSatisfy { $0.count == 4 }, "\(rows)")
        #expect(Set(rows.map { $0[0] }).count == rows.count)
        for row in rows {
            #expect(row[1] == CampaignFiles.link(row[0]), "\(row)")
            let components = URLComponents(string: row[1])
            #expect(components?.scheme == "https" && components?.host == "apps.apple.com")
            #expect(components?.path == "/redeem")
            #expect(
                components?.queryItems == [
                    URLQueryItem(name: "ctx", value: "offercodes"),
                    URLQueryItem(name: "id", value: CampaignFiles.appAppleId),
                    URLQueryItem(name: "code", value: row[0]),
                ])
        }
        let byCode = Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0) })
        #expect(byCode["PRESS27"]?[2] == CodesImportTests.press)
        #expect(byCode["PRESS27"]?[3] == "2027-03-16")
        #expect(byCode["AAAA1111"]?[2] == CodesImportTests.gemPack)
        #expect(byCode["AAAA1111"]?[3] == "2027-02-14")
        #expect(result.stdout.contains(#","Gem pack, launch",2027-02-14"#), "a comma in a field is quoted")
        // Spreadsheets must show the name, not run it.
        #expect(byCode["GEMS2X"]?[2] == "'" + Self.formulaOffer, "\(String(describing: byCode["GEMS2X"]))")
        let generated = rows.filter { $0[0].hasPrefix("P") && $0[0] != "PRESS27" }
        #expect(generated.count == 20)
        #expect(generated.allSatisfy { $0[2] == CodesImportTests.press && $0[3].isEmpty })
    }

    @Test func jsonParsesWithEveryCode() async throws {
        let (files, campaign) = try await Self.setUp()
        defer { files.remove() }
        let csv = try await files.run("export", campaign)
        let result = try await files.run("export", campaign, ["--format", "json"])
        #expect(result.status == 0, "\(result)")
        let rows = try #require(JSON.parse(result.stdout)?.array, "\(result)")
        #expect(rows.compactMap { $0["code"]?.string } == CampaignFiles.codes(ofCSV: csv.stdout))
        for row in rows {
            #expect(row.keys == ["code", "url", "offer", "expirationDate", "redemptionLimit", "environment"], "\(row)")
            #expect(row["url"]?.string == CampaignFiles.link(row["code"]?.string ?? "?"))
            #expect(row["environment"] == .string("PRODUCTION"))
        }
        let byCode = Dictionary(uniqueKeysWithValues: rows.map { ($0["code"]?.string ?? "", $0) })
        #expect(byCode["PRESS27"]?["redemptionLimit"] == .int(5))
        #expect(byCode["PRESS27"]?["expirationDate"] == .string("2027-03-16"))
        #expect(byCode["GEMS2X"]?["offer"] == .string(Self.formulaOffer))
        #expect(byCode["GEMS2X"]?["expirationDate"] == .null)
        #expect(byCode["BBBB2222"]?["redemptionLimit"] == .int(1))
        #expect(byCode["BBBB2222"]?["offer"] == .string(CodesImportTests.gemPack))
    }

    /// The gem pack has no displayName: its messages name no offer (they used to print its
    /// reference name, which issue 16 forbids), and stderr says how to add a title.
    @Test(arguments: [
        ("en", "Here's your offer code: "), ("ja", "コード："), ("ko", "코드: "), ("zh-Hans", "优惠码："),
    ])
    func messagesInEveryLanguage(language: String, phrase: String) async throws {
        let (files, campaign) = try await Self.setUp()
        defer { files.remove() }
        let result = try await files.run(
            "export", campaign, ["--format", "messages", "--language", language, "--offer", CodesImportTests.gemPack])
        #expect(result.status == 0, "\(result)")
        let records = CampaignFiles.csvRecords(result.stdout)
        #expect(records.first == ["code", "language", "message"])
        let rows = Array(records.dropFirst())
        #expect(rows.map { $0[0] } == CodesImportTests.appleCodes)
        for row in rows {
            #expect(row.count == 3 && row[1] == language, "\(row)")
            let message = row.count == 3 ? row[2] : ""
            #expect(message.contains(row[0]), "the message holds its code: \(message)")
            #expect(message.contains(CampaignFiles.link(row[0])), "the message holds its link: \(message)")
            #expect(!message.contains(CodesImportTests.gemPack), "never the reference name: \(message)")
            #expect(!message.contains("Gem pack"), "\(message)")
            #expect(message.contains(phrase), "\(language): \(message)")
        }
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("displayName") }
        #expect(notes.count == 1, "\(result.stderr)")
        #expect(notes.first?.contains("\"\(CodesImportTests.gemPack)\" has no displayName for \(language)") == true)
    }

    @Test("messages show each offer's displayName, a shared code is the campaign's, one note per untitled offer")
    func messagesShowDisplayNames() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let titled = CampaignFiles.offer(
            "Press 2027 internal", custom: [CampaignFiles.given(["PRESS27"], redemptionLimit: 50)]
        ).replacingOccurrences(
            of: "{\"referenceName\"",
            with: #"{"displayName": {"en": "Pro for press", "JA": "報道関係者向けPro"}, "referenceName""#)
        let untitled = CampaignFiles.offer(
            "Gift 2027 internal", productAscId: "6450000011", custom: [CampaignFiles.given(["GIFT27"])])
        let campaign = try files.write(
            CampaignFiles.campaign(name: "titles", offers: [titled, untitled]), to: "campaign.json")
        let generate = try await files.run("generate", campaign)
        #expect(generate.status == 0, "\(generate)")

        let ja = try await files.run("export", campaign, ["--format", "messages", "--language", "ja"])
        #expect(ja.status == 0, "\(ja)")
        let rows = Dictionary(
            uniqueKeysWithValues: CampaignFiles.csvRecords(ja.stdout).dropFirst().map { ($0[0], $0[2]) })
        #expect(rows["PRESS27"]?.contains("「報道関係者向けPro」のキャンペーンコードをお知らせします。") == true, "\(rows)")
        #expect(rows["GIFT27"]?.contains("お客様専用の特典コードをお届けします。") == true, "\(rows)")
        #expect(!ja.stdout.contains("internal"), "no reference name in any message: \(ja.stdout)")
        let jaNotes = ja.stderr.split(separator: "\n").map(String.init)
        #expect(jaNotes.count == 1, "\(ja.stderr)")
        for word in [
            "offerkit: note: offer \"Gift 2027 internal\" has no displayName for ja", "name no offer",
            #""displayName": {"ja": "…"}"#, campaign,
        ] {
            #expect(jaNotes.first?.contains(word) == true, "\(word): \(ja.stderr)")
        }

        let ko = try await files.run("export", campaign, ["--format", "messages", "--language", "ko"])
        #expect(ko.status == 0, "\(ko)")
        #expect(ko.stdout.contains("“Pro for press” 캠페인 코드"), "the English title: \(ko.stdout)")
        let koNotes = ko.stderr.split(separator: "\n").map(String.init)
        #expect(koNotes.count == 2, "\(ko.stderr)")
        #expect(
            koNotes.contains {
                $0.contains("\"Press 2027 internal\" has no displayName for ko") && $0.contains("English")
            })
        #expect(koNotes.contains { $0.contains("\"Gift 2027 internal\" has no displayName for ko") })

        let en = try await files.run("export", campaign, ["--format", "messages", "--offer", "Press 2027 internal"])
        #expect(en.status == 0 && en.stderr.isEmpty, "\(en)")
        #expect(en.stdout.contains("Here's the code for Pro for press: PRESS27"), "\(en.stdout)")
        let csv = try await files.run("export", campaign)
        #expect(csv.status == 0 && csv.stderr.isEmpty, "CSV is data: no notes\n\(csv)")
        #expect(csv.stdout.contains("Press 2027 internal"), "CSV keeps the reference name as data")

        // A title that breaks a rule never reaches a message: the export refuses the file.
        _ = try files.write(
            CampaignFiles.campaign(
                name: "titles",
                offers: [titled.replacingOccurrences(of: #""Pro for press""#, with: #""  ""#), untitled]),
            to: "campaign.json")
        let refused = try await files.run("export", campaign, ["--format", "messages"])
        Expect.failure(refused, status: 4, mentioning: ["$.offers[0].displayName.en", "empty"])
    }

    @Test func recipientsGetCodesInOrder() async throws {
        let (files, campaign) = try await Self.setUp()
        defer { files.remove() }
        let people = try files.write("Alice\nBob,ja\n\nCharlie Brown, ko\n", to: "people.txt")
        let result = try await files.run(
            "export", campaign,
            ["--format", "messages", "--recipients", people, "--offer", CodesImportTests.gemPack])
        #expect(result.status == 0, "\(result)")
        let records = CampaignFiles.csvRecords(result.stdout)
        #expect(records.first == ["name", "code", "language", "message", "recipient", "assignedAt"])
        let rows = Array(records.dropFirst())
        #expect(rows.map { $0[0] } == ["Alice", "Bob", "Charlie Brown"])
        #expect(rows.map { $0[4] } == ["Alice", "Bob", "Charlie Brown"], "without a header, the name is the id")
        #expect(rows.map { $0[1] } == CodesImportTests.appleCodes)
        #expect(rows.map { $0[2] } == ["en", "ja", "ko"])
        let greetings = ["Hi Alice,", "Bob様", "Charlie Brown님"]
        for (row, greeting) in zip(rows, greetings) {
            #expect(row[3].hasPrefix(greeting), "\(row[3])")
            #expect(row[3].contains(CampaignFiles.link(row[1])))
        }

        // Recipients get codes of one offer: a campaign of several needs --offer.
        let all = try await files.run("export", campaign, ["--format", "messages", "--recipients", people])
        Expect.failure(all, status: 2, mentioning: ["--offer", CodesImportTests.gemPack, CodesImportTests.press])
    }

    @Test("--recipients is CSV: a quoted name may hold a comma or a quote; a bad line exits 4 naming it")
    func recipientsAreCSV() async throws {
        let (files, campaign) = try await Self.setUp()
        defer { files.remove() }
        let people = try files.write(
            "\u{FEFF}\"Wang, Fang\",zh-Hans\r\n\"Dwayne \"\"The Rock\"\" Johnson\"\r\n\r\nKim,\r\n", to: "people.csv")
        let result = try await files.run(
            "export", campaign,
            ["--format", "messages", "--recipients", people, "--offer", CodesImportTests.gemPack])
        #expect(result.status == 0, "\(result)")
        let rows = Array(CampaignFiles.csvRecords(result.stdout).dropFirst())
        #expect(rows.map { $0[0] } == ["Wang, Fang", #"Dwayne "The Rock" Johnson"#, "Kim"], "\(result)")
        #expect(rows.map { $0[2] } == ["zh-Hans", "en", "en"], "an empty language is the export's\n\(result)")

        for (text, words) in [
            ("Alice\n\"Wang, Fang,zh-Hans\n", ["line 2", "never closed"]),
            ("Alice\nBob\n\"Wang\" Fang,ja\n", ["line 3", "after a closing double quote"]),
            ("Alice\nWang, Fang,zh-Hans\n", ["line 2", "3 fields", "\"Wang, Fang\""]),
            ("Alice\n\n,ja\n", ["line 3", "empty name"]),
            ("Alice,fr\n", ["line 1", "\"fr\"", "zh-Hans"]),
        ] {
            let bad = try files.write(text, to: "bad.csv")
            let failed = try await files.run(
                "export", campaign,
                ["--format", "messages", "--recipients", bad, "--offer", CodesImportTests.gemPack])
            Expect.failure(failed, status: 4, mentioning: ["bad.csv"] + words)
        }
    }

    @Test func moreRecipientsThanCodesExits4() async throws {
        let (files, campaign) = try await Self.setUp()
        defer { files.remove() }
        let people = try files.write("A\nB\nC\nD\n", to: "people.txt")
        let out = files.file("messages.csv")
        let result = try await files.run(
            "export", campaign,
            ["--format", "messages", "--recipients", people, "--offer", CodesImportTests.gemPack, "--out", out])
        Expect.failure(result, status: 4, mentioning: ["4 of the 4 recipients", "3 unassigned production codes"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func ownTemplateReplacesTheBuiltInOne() async throws {
        let (files, campaign) = try await Self.setUp()
        defer { files.remove() }
        let templates = files.file("templates")
        try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: false)
        try files.write("{{{csv.code}}};{{number}};{{#last}}last{{/last}}\n", to: "templates/csv-row.mustache")
        let result = try await files.run(
            "export", campaign, ["--templates", templates, "--offer", CodesImportTests.gemPack])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == "code,url,offer,expirationDate\r\nAAAA1111;1;\r\nBBBB2222;2;\r\nCCCC3333;3;last\r\n",
            "\(result)")
    }

    @Test func malformedTemplateExits4NamingTheFile() async throws {
        let (files, campaign) = try await Self.setUp()
        defer { files.remove() }
        let templates = files.file("templates")
        try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: false)
        let template = try files.write("{{#code}}broken\n", to: "templates/csv-row.mustache")
        let result = try await files.run("export", campaign, ["--templates", templates])
        Expect.failure(result, status: 4, mentioning: [template, "Mustache"])
    }

    @Test func outIsWrittenWhole() async throws {
        let (files, campaign) = try await Self.setUp()
        defer { files.remove() }
        let stdout = try await files.run("export", campaign, ["--format", "json"])
        let out = files.file("codes.json")
        let written = try await files.run("export", campaign, ["--format", "json", "--out", out])
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written)")
        #expect(files.text(of: out) == stdout.stdout)
        #expect(!files.listing().contains { $0.hasSuffix(".tmp") }, "\(files.listing())")

        let refused = try await files.run("export", campaign, ["--out", out])
        Expect.failure(refused, status: 5, mentioning: [out, "--force"])
        #expect(files.text(of: out) == stdout.stdout)
        let forced = try await files.run("export", campaign, ["--out", out, "--force"])
        #expect(forced.status == 0, "\(forced)")
        await #expect(files.text(of: out) == (try files.run("export", campaign)).stdout)
    }

    @Test func exportWithoutCodesExits4() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let out = files.file("codes.csv")
        let result = try await files.run("export", CampaignFiles.example, ["--out", out])
        Expect.failure(result, status: 4, mentioning: ["no codes", "spring-2027", "codes generate", "codes import"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
