import Foundation
import OfferCodes
import Testing

@testable import LedgerTestSupport

/// Messages name an offer by its customer-facing title (`displayName`) in the message's language,
/// else English, never by its reference name; shared codes are the campaign's, never "your code".
@Suite("Code exports: offer titles and shared codes")
struct ExportTitleTests {
    typealias Fixtures = ExportFixtures

    /// A reference name no message may print.
    static let reference = "INTERNAL-spring-27-ref"
    /// Titles in three of the four languages, with tags written unusually.
    static let titles = OfferDisplayName(["en": "Three months free", "JA": "3か月無料", "zh_Hans": "三个月免费"])
    /// Titles in all four languages.
    static let allTitles = OfferDisplayName([
        "en": "Three months free", "ja": "3か月無料", "ko": "3개월 무료", "zh-Hans": "三个月免费",
    ])

    /// The message of each code, exported in `language`.
    private static func messages(
        _ language: String, _ codes: [IssuedCode], titles: OfferDisplayName?, recipients: [ExportRecipient]? = nil
    ) throws -> [String] {
        let text = try Fixtures.export(
            .messages(language: language), codes, recipients: recipients,
            displayNames: titles.map { [reference: $0] } ?? [:])
        let rows = try StrictCSV.parse(text)
        let column = try #require(rows.first?.firstIndex(of: "message"))
        return rows.dropFirst().map { $0[column] }
    }

    private static func code(_ code: String = "SPRING27", shared: Bool = false) -> IssuedCode {
        Fixtures.code(code, offer: reference, redemptionLimit: shared ? 500 : 1)
    }

    @Test func eachMessageShowsTheTitleOfItsLanguageElseTheEnglishOne() throws {
        let expected = ["en": "Three months free", "ja": "3か月無料", "ko": "Three months free", "zh-Hans": "三个月免费"]
        for language in CodeExporter.languages {
            let message = try #require(try Self.messages(language, [Self.code()], titles: Self.titles).first)
            let title = try #require(expected[language])
            #expect(message.contains(title), "\(language): \(message)")
            #expect(!message.contains(Self.reference), "\(language): \(message)")
        }
        // Recipients in several languages: each message in its own language's title.
        let recipients = CodeExporter.languages.map { ExportRecipient(name: "R-\($0)", language: $0) }
        let codes = (1...4).map { Self.code("CODE\($0)") }
        let messages = try Self.messages("en", codes, titles: Self.titles, recipients: recipients)
        #expect(messages.count == 4)
        for (language, message) in zip(CodeExporter.languages, messages) {
            #expect(message.contains(expected[language] ?? "?"), "\(language): \(message)")
        }
    }

    @Test func theCampaignInitialiserTakesTheOffersDisplayNames() throws {
        let offer = OfferDefinition(
            referenceName: Self.reference, displayName: Self.titles,
            product: ProductReference(id: "1", productId: "com.example.pro", type: .nonConsumable),
            paymentMode: .oneTime,
            customerEligibilities: [.nonSpender], prices: [TerritoryPrice(territory: "USA", pricePoint: nil)])
        let campaign = Campaign(name: "spring", app: Fixtures.app, offers: [offer])
        let exporter = try CodeExporter(format: .messages(language: "ja"), campaign: campaign)
        var output = ""
        try exporter.export(codes: [Self.code()]) { output += $0 }
        #expect(output.contains("3か月無料") && !output.contains(Self.reference), "\(output)")
        #expect(exporter.app == Fixtures.app)
    }

    @Test func noBuiltInMessageEverPrintsTheReferenceName() throws {
        let variants: [OfferDisplayName?] = [Self.titles, OfferDisplayName(["ko": "한국어만"]), nil]
        for language in CodeExporter.languages {
            let template = try #require(ExportTemplates.builtInText(named: "message.\(language).mustache"))
            #expect(!template.contains("offer}}"), "message.\(language).mustache prints the reference name")
            for titles in variants {
                for recipients in [nil, [ExportRecipient(name: "Ada"), ExportRecipient(name: "Grace")]] {
                    let messages = try Self.messages(
                        language, [Self.code("ONE"), Self.code("MANY", shared: true)], titles: titles,
                        recipients: recipients)
                    #expect(messages.count == 2)
                    for message in messages {
                        #expect(!message.contains(Self.reference), "\(language): \(message)")
                        #expect(message.contains("ONE") || message.contains("MANY"))
                    }
                }
            }
        }
    }

    /// What a message says of the code, in each language: titled and personal, titled and shared,
    /// untitled and personal, untitled and shared; and the words a shared code's message never has.
    static let wording: [(String, [String], [String])] = [
        (
            "en",
            [
                "Here's your code for Three months free: SPRING27", "Here's the code for Three months free: SPRING27",
                "Here's your offer code: SPRING27", "Here's the campaign's offer code: SPRING27",
            ], ["your", "Your"]
        ),
        (
            "ja",
            [
                "「3か月無料」のお客様専用コードをお届けします。", "「3か月無料」のキャンペーンコードをお知らせします。",
                "お客様専用の特典コードをお届けします。", "キャンペーンコードをお知らせします。",
            ], ["お客様専用", "あなた"]
        ),
        (
            "ko",
            [
                "고객님 전용 “3개월 무료” 혜택 코드를 보내 드립니다.", "“3개월 무료” 캠페인 코드를 안내해 드립니다.",
                "고객님 전용 혜택 코드를 보내 드립니다.", "캠페인 혜택 코드를 안내해 드립니다.",
            ], ["고객님 전용", "당신"]
        ),
        (
            "zh-Hans",
            [
                "为您送上“三个月免费”专属优惠码。", "“三个月免费”活动优惠码如下。", "为您送上专属优惠码。", "本次活动优惠码如下。",
            ], ["专属", "您的"]
        ),
    ]

    @Test(arguments: wording)
    func sharedCodesAreTheCampaignsCodeNeverYours(language: String, lines: [String], neverShared: [String]) throws {
        try #require(lines.count == 4)
        let cases: [(OfferDisplayName?, Bool)] = [
            (Self.allTitles, false), (Self.allTitles, true), (nil, false), (nil, true),
        ]
        for ((titles, shared), line) in zip(cases, lines) {
            let message = try #require(try Self.messages(language, [Self.code(shared: shared)], titles: titles).first)
            #expect(message.contains(line), "\(language), shared \(shared): \(message)")
            #expect(message.contains("SPRING27"))
            if shared {
                for word in neverShared {
                    #expect(!message.contains(word), "\(language): a shared code's message says \(word): \(message)")
                }
            }
        }
    }

    @Test func templatesSeeTitleAndShared() throws {
        try Fixtures.withTemporaryFolder { folder in
            try "{{code}};{{title}};{{#shared}}shared{{/shared}}{{^shared}}own{{/shared}};{{offer}}\n"
                .write(to: folder.appendingPathComponent("csv-row.mustache"), atomically: true, encoding: .utf8)
            let text = try Fixtures.export(
                .csv, [Self.code("ONE"), Self.code("MANY", shared: true), Fixtures.code("OTHER", offer: "Other")],
                templates: .directory(folder), displayNames: [Self.reference: Self.titles])
            #expect(
                text == "code,url,offer,expirationDate\r\nONE;Three months free;own;\(Self.reference)\r\n"
                    + "MANY;Three months free;shared;\(Self.reference)\r\nOTHER;;own;Other\r\n")
        }
    }

    @Test func languagesWithoutTitleNameTheExportsAndTheRecipientsLanguages() throws {
        let campaignTitles = [Self.reference: OfferDisplayName(["en": "Three months free", "ko": "3개월 무료"])]
        let ja = try CodeExporter(format: .messages(language: "ja"), app: Fixtures.app, displayNames: campaignTitles)
        #expect(ja.languagesWithoutTitle(offer: Self.reference) == ["ja"])
        let recipients = [
            ExportRecipient(name: "A", language: "zh_hans"), ExportRecipient(name: "B", language: "KO"),
            ExportRecipient(name: "C"), ExportRecipient(name: "D", language: "zh-Hans"),
            ExportRecipient(name: "E", language: "fr"),
        ]
        #expect(ja.languagesWithoutTitle(offer: Self.reference, recipients: recipients) == ["ja", "zh-Hans"])
        #expect(ja.languagesWithoutTitle(offer: "Unknown offer") == ["ja"])
        let en = try CodeExporter(format: .messages(language: "EN"), app: Fixtures.app, displayNames: campaignTitles)
        #expect(en.languagesWithoutTitle(offer: Self.reference) == [])
        let csv = try CodeExporter(format: .csv, app: Fixtures.app, displayNames: campaignTitles)
        #expect(csv.languagesWithoutTitle(offer: "Unknown offer") == [])
    }
}
