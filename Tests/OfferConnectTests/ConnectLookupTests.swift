import OfferCodes
import OfferConnectAPI
import OfferJSON
import Testing

/// What a lookup after an unknown outcome relies on, as the hostile review of `codes apply` asked:
/// the next page of a list is asked of the base URL whatever host `links.next` names, and an offer
/// is recognised by every attribute the list shows, never by its name alone.
@Suite("App Store Connect: lookups (next pages, offer matching)")
struct ConnectLookupTests {
    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    // MARK: links.next

    @Test func nextLinksGoToTheBaseURLWhateverHostTheyName() throws {
        // A base URL that is not the host App Store Connect (or the stand-in) writes into its links.
        let local = try ConnectAPIAddress("http://localhost:8080")
        #expect(
            local.rebase("http://127.0.0.1:8080/v1/inAppPurchaseOfferCodes/6500000001/customCodes?cursor=Mg&limit=200")
                == "http://localhost:8080/v1/inAppPurchaseOfferCodes/6500000001/customCodes?cursor=Mg&limit=200")
        #expect(
            local.rebase("https://api.appstoreconnect.apple.com/v2/inAppPurchases/6450000010/offerCodes?cursor=eyJ9")
                == "http://localhost:8080/v2/inAppPurchases/6450000010/offerCodes?cursor=eyJ9")
        // The token never follows a link elsewhere: another host, port, scheme or user becomes the base URL.
        #expect(
            local.rebase("https://user:secret@elsewhere.example:9/v1/subscriptions/6450000001/offerCodes")
                == "http://localhost:8080/v1/subscriptions/6450000001/offerCodes")
        // A proxy's path prefix is kept; the query stays percent-encoded as it came.
        let proxy = try ConnectAPIAddress("https://proxy.example.com/asc/")
        #expect(
            proxy.rebase(
                "https://api.appstoreconnect.apple.com/v1/subscriptions/6450000001/offerCodes?limit=200&cursor=a%2Bb")
                == "https://proxy.example.com/asc/v1/subscriptions/6450000001/offerCodes?limit=200&cursor=a%2Bb")
        // A link longer than 4,096 bytes is not followed.
        #expect(local.rebase("http://127.0.0.1:8080/v1/x?cursor=" + String(repeating: "a", count: 4_100)) == nil)
        // A link without a host is read the same way.
        #expect(
            proxy.rebase("/v1/subscriptionOfferCodes/6500000001/oneTimeUseCodes")
                == "https://proxy.example.com/asc/v1/subscriptionOfferCodes/6500000001/oneTimeUseCodes")
    }

    @Test(arguments: [
        "https://api.appstoreconnect.apple.com/v3/subscriptions/1/offerCodes",
        "https://api.appstoreconnect.apple.com/asc/v1/subscriptions/1/offerCodes",
        "https://api.appstoreconnect.apple.com/",
        "https://api.appstoreconnect.apple.com/V1/subscriptions/1/offerCodes",
        "https://api.appstoreconnect.apple.com/v1/subscriptions/1/../../admin",
        "https://api.appstoreconnect.apple.com/v1/../v2/x",
        "https://api.appstoreconnect.apple.com/v1/subscriptions/1/offerCodes#top",
        "https://api.appstoreconnect.apple.com/v1/subscriptions/1/offerCodes?cursor=1#",
        "v1/subscriptions/1/offerCodes",
        "",
    ])
    func linksThatAreNotListURLsAreRefused(link: String) throws {
        let base = try ConnectAPIAddress("https://proxy.example.com/asc")
        #expect(base.rebase(link) == nil, "\(link)")
    }

    // MARK: Offer matching

    /// A subscription offer as planned (`data.attributes` of its create request).
    static let plannedOffer = """
        {"name": "Spring half price", "customerEligibilities": ["NEW", "EXPIRED"],
         "offerEligibility": "STACK_WITH_INTRO_OFFERS", "offerMode": "PAY_AS_YOU_GO", "duration": "ONE_MONTH",
         "numberOfPeriods": 3, "autoRenewEnabled": true}
        """

    /// The same offer as App Store Connect lists it, with `replacing` members changed.
    static func listedOffer(_ replacing: [String: String] = [:]) throws -> JSONValue {
        var members: [(String, String)] = [
            ("name", #""Spring half price""#), ("customerEligibilities", #"["NEW", "EXPIRED"]"#),
            ("offerEligibility", #""STACK_WITH_INTRO_OFFERS""#), ("offerMode", #""PAY_AS_YOU_GO""#),
            ("duration", #""ONE_MONTH""#), ("numberOfPeriods", "3"), ("autoRenewEnabled", "true"),
            ("active", "true"), ("productionCodeCount", "0"), ("sandboxCodeCount", "0"), ("totalNumberOfCodes", "0"),
        ]
        for (key, value) in replacing {
            if let index = members.firstIndex(where: { $0.0 == key }) {
                members[index].1 = value
            } else {
                members.append((key, value))
            }
        }
        return try json("{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    }

    @Test func anOfferMatchesOnEveryListedAttribute() throws {
        let planned = try Self.json(Self.plannedOffer)
        #expect(ConnectListPage.matches(try Self.listedOffer(), planned, kind: .offer))
        // Eligibilities are a set: another order is the same offer.
        #expect(
            ConnectListPage.matches(
                try Self.listedOffer(["customerEligibilities": #"["EXPIRED", "NEW"]"#]), planned, kind: .offer))
        // What the list does not show is not held against it.
        let sparse = try Self.json(#"{"name": "Spring half price", "active": true}"#)
        #expect(ConnectListPage.matches(sparse, planned, kind: .offer))
        // An in-app purchase offer plans only its name and eligibilities.
        let inAppPurchase = try Self.json(
            #"{"name": "Gems", "customerEligibilities": ["NON_SPENDER", "CHURNED_SPENDER"]}"#)
        let listedInAppPurchase = try Self.json(
            #"{"name": "Gems", "customerEligibilities": ["CHURNED_SPENDER", "NON_SPENDER"], "active": true, "productionCodeCount": 5}"#
        )
        #expect(ConnectListPage.matches(listedInAppPurchase, inAppPurchase, kind: .offer))
    }

    @Test(arguments: [
        ["name": #""Spring half price 2""#],
        ["name": #""spring half price""#],
        ["offerMode": #""PAY_UP_FRONT""#],
        ["duration": #""THREE_MONTHS""#],
        ["numberOfPeriods": "2"],
        ["offerEligibility": #""REPLACE_INTRO_OFFERS""#],
        ["customerEligibilities": #"["NEW"]"#],
        ["customerEligibilities": #"["NEW", "EXPIRED", "EXISTING"]"#],
        ["customerEligibilities": #"["NEW", "EXISTING"]"#],
        ["autoRenewEnabled": "false"],
        ["active": "false"],
    ])
    func anotherOfferWithTheSameNameDoesNotMatch(change: [String: String]) throws {
        let planned = try Self.json(Self.plannedOffer)
        #expect(!ConnectListPage.matches(try Self.listedOffer(change), planned, kind: .offer), "\(change)")
    }

    @Test func anOfferSwitchedOffIsNotOneJustCreated() throws {
        let planned = try Self.json(#"{"name": "Gems", "customerEligibilities": ["NON_SPENDER"]}"#)
        let off = try Self.json(#"{"name": "Gems", "customerEligibilities": ["NON_SPENDER"], "active": false}"#)
        #expect(!ConnectListPage.matches(off, planned, kind: .offer))
        let on = try Self.json(#"{"name": "Gems", "customerEligibilities": ["NON_SPENDER"], "active": true}"#)
        #expect(ConnectListPage.matches(on, planned, kind: .offer))
    }
}
