import Foundation
import Testing

@testable import OfferSigning

/// Advanced Commerce in-app requests (docs/formats.md §4): exact JSON, validation paths, decoding errors.
@Suite("AdvancedCommerce")
struct AdvancedCommerceTests {
    typealias AC = AdvancedCommerce

    static let referenceId = UUID(uuidString: "9B4C8F0E-1D2A-4E3B-8C5D-6F7A8B9C0D1E")!
    static let accountToken = UUID(uuidString: "A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D")!
    static let info = AC.RequestInfo(requestReferenceId: referenceId)
    static let infoJSON = #"{"requestReferenceId":"9b4c8f0e-1d2a-4e3b-8c5d-6f7a8b9c0d1e"}"#

    // MARK: - Valid requests of each type

    static func oneTimeCharge() -> AC.OneTimeChargeCreateRequest {
        AC.OneTimeChargeCreateRequest(
            requestInfo: AC.RequestInfo(
                requestReferenceId: referenceId, appAccountToken: accountToken, consistencyToken: "ct-1"),
            currency: "USD", taxCode: "C003-00-2",
            item: AC.OneTimeChargeItem(
                sku: "gems.100", description: "One hundred gems", displayName: "100 Gems", price: 4990),
            storefront: "USA")
    }

    static let oneTimeChargeJSON =
        #"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"9b4c8f0e-1d2a-4e3b-8c5d-6f7a8b9c0d1e","appAccountToken":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d","consistencyToken":"ct-1"},"currency":"USD","taxCode":"C003-00-2","item":{"SKU":"gems.100","description":"One hundred gems","displayName":"100 Gems","price":4990},"storefront":"USA"}"#

    static func createSubscription() -> AC.SubscriptionCreateRequest {
        AC.SubscriptionCreateRequest(
            requestInfo: info, currency: "EUR", taxCode: "C003-00-1",
            descriptors: AC.Descriptors(description: "Premium bundle", displayName: "Premium"),
            items: [
                AC.SubscriptionItem(
                    sku: "premium.news", description: "News", displayName: "News", price: 9990,
                    offer: AC.Offer(period: .oneMonth, periodCount: 3, price: 4990, reason: .acquisition)),
                AC.SubscriptionItem(sku: "premium.sports", description: "Sports", displayName: "Sports", price: 5990),
            ],
            period: .oneMonth, previousTransactionId: "2000000000000001", storefront: "DEU")
    }

    static let createSubscriptionJSON =
        #"{"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"9b4c8f0e-1d2a-4e3b-8c5d-6f7a8b9c0d1e"},"currency":"EUR","taxCode":"C003-00-1","descriptors":{"description":"Premium bundle","displayName":"Premium"},"items":[{"SKU":"premium.news","description":"News","displayName":"News","price":9990,"offer":{"period":"P1M","periodCount":3,"price":4990,"reason":"ACQUISITION"}},{"SKU":"premium.sports","description":"Sports","displayName":"Sports","price":5990}],"period":"P1M","previousTransactionId":"2000000000000001","storefront":"DEU"}"#

    static func modifySubscription() -> AC.SubscriptionModifyInAppRequest {
        AC.SubscriptionModifyInAppRequest(
            requestInfo: info, transactionId: "2000000000000002", retainBillingCycle: true,
            addItems: [
                AC.AddItem(
                    sku: "addon.a", description: "Add-on A", displayName: "Add-on A", price: 1990,
                    offer: AC.Offer(period: .twoWeeks, periodCount: 1, price: 0, reason: .winBack), proratedPrice: 990)
            ],
            changeItems: [
                AC.ChangeItem(
                    sku: "tier.gold", currentSKU: "tier.silver", description: "Gold tier", displayName: "Gold",
                    price: 19990, effective: .immediately, reason: .upgrade, proratedPrice: 5000)
            ],
            removeItems: [AC.SKUItem(sku: "addon.b")],
            periodChange: AC.PeriodChange(effective: .nextBillCycle, period: .oneYear),
            descriptors: AC.ModifyDescriptors(
                effective: .nextBillCycle, description: "New description", displayName: "New name"),
            currency: "USD", taxCode: "C003-00-2", storefront: "USA")
    }

    static let modifySubscriptionJSON =
        #"{"operation":"MODIFY_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"9b4c8f0e-1d2a-4e3b-8c5d-6f7a8b9c0d1e"},"transactionId":"2000000000000002","retainBillingCycle":true,"addItems":[{"SKU":"addon.a","description":"Add-on A","displayName":"Add-on A","price":1990,"offer":{"period":"P2W","periodCount":1,"price":0,"reason":"WIN_BACK"},"proratedPrice":990}],"changeItems":[{"SKU":"tier.gold","currentSKU":"tier.silver","description":"Gold tier","displayName":"Gold","price":19990,"effective":"IMMEDIATELY","reason":"UPGRADE","proratedPrice":5000}],"removeItems":[{"SKU":"addon.b"}],"periodChange":{"effective":"NEXT_BILL_CYCLE","period":"P1Y"},"descriptors":{"effective":"NEXT_BILL_CYCLE","description":"New description","displayName":"New name"},"currency":"USD","taxCode":"C003-00-2","storefront":"USA"}"#

    static func reactivateSubscription() -> AC.SubscriptionReactivateInAppRequest {
        AC.SubscriptionReactivateInAppRequest(
            requestInfo: info, transactionId: "2000000000000003",
            items: [AC.SKUItem(sku: "premium.news"), AC.SKUItem(sku: "premium.sports")], storefront: "GBR")
    }

    static let reactivateSubscriptionJSON =
        #"{"operation":"REACTIVATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"9b4c8f0e-1d2a-4e3b-8c5d-6f7a8b9c0d1e"},"transactionId":"2000000000000003","items":[{"SKU":"premium.news"},{"SKU":"premium.sports"}],"storefront":"GBR"}"#

    static var allValid: [(AC.InAppRequest, String)] {
        [
            (.oneTimeCharge(oneTimeCharge()), oneTimeChargeJSON),
            (.createSubscription(createSubscription()), createSubscriptionJSON),
            (.modifySubscription(modifySubscription()), modifySubscriptionJSON),
            (.reactivateSubscription(reactivateSubscription()), reactivateSubscriptionJSON),
            (
                .modifySubscription(
                    AC.SubscriptionModifyInAppRequest(
                        requestInfo: info, transactionId: "2000000000000004", retainBillingCycle: false)),
                #"{"operation":"MODIFY_SUBSCRIPTION","version":"1","requestInfo":\#(infoJSON),"transactionId":"2000000000000004","retainBillingCycle":false}"#
            ),
            (
                .reactivateSubscription(
                    AC.SubscriptionReactivateInAppRequest(requestInfo: info, transactionId: "2000000000000005")),
                #"{"operation":"REACTIVATE_SUBSCRIPTION","version":"1","requestInfo":\#(infoJSON),"transactionId":"2000000000000005"}"#
            ),
            (
                .oneTimeCharge(
                    AC.OneTimeChargeCreateRequest(
                        requestInfo: info, currency: "JPY", taxCode: "C003-00-2",
                        item: AC.OneTimeChargeItem(
                            sku: #"sku "quoted" \ é"#, description: "Ünïcödé – 🎉", displayName: "a/b <c> & 'd'",
                            price: 0))),
                #"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":\#(infoJSON),"currency":"JPY","taxCode":"C003-00-2","item":{"SKU":"sku \"quoted\" \\ é","description":"Ünïcödé – 🎉","displayName":"a/b <c> & 'd'","price":0}}"#
            ),
        ]
    }

    @Test func jsonBytesAreExactAndOperationsMatch() throws {
        for (request, json) in Self.allValid {
            try request.validate()
            #expect(String(decoding: request.jsonBytes, as: UTF8.self) == json)
            #expect(request.jsonBytes == Array(json.utf8))
            #expect(json.hasPrefix(#"{"operation":"\#(request.operation.rawValue)","version":"1","requestInfo":{"#))
        }
        #expect(AC.InAppRequest.oneTimeCharge(Self.oneTimeCharge()).operation == .createOneTimeCharge)
        #expect(AC.InAppRequest.createSubscription(Self.createSubscription()).operation == .createSubscription)
        #expect(AC.InAppRequest.modifySubscription(Self.modifySubscription()).operation == .modifySubscription)
        #expect(
            AC.InAppRequest.reactivateSubscription(Self.reactivateSubscription()).operation == .reactivateSubscription)
        #expect(AC.InAppRequest.version == "1")
    }

    @Test func jsonBytesAreStable() {
        for (request, _) in Self.allValid {
            #expect(request.jsonBytes == request.jsonBytes)
        }
    }

    @Test func decodeRoundTripsEveryType() throws {
        for (request, json) in Self.allValid {
            let decoded = try AC.InAppRequest.decode(json: Array(json.utf8))
            #expect(decoded == request)
            #expect(decoded.jsonBytes == Array(json.utf8))
        }
    }

    @Test func codableRoundTripsEveryType() throws {
        for (request, _) in Self.allValid {
            let data = try JSONEncoder().encode(request)
            #expect(try JSONDecoder().decode(AC.InAppRequest.self, from: data) == request)
            #expect(try AC.InAppRequest.decode(json: Array(data)) == request)
        }
    }

    @Test func requestClaimIsPaddedStandardBase64OfJSONBytes() throws {
        let signer = try TestJWS.fixedSigner()
        for (request, json) in Self.allValid {
            let jws = try signer.sign(request)
            let verified = try TestJWS.verifier.verify(jws.serialization, as: .advancedCommerce)
            let claim = try #require(verified.claims.request)
            #expect(claim.count % 4 == 0)
            #expect(!claim.contains("-") && !claim.contains("_"))
            let decoded = try #require(Data(base64Encoded: claim))
            #expect(Array(decoded) == request.jsonBytes)
            #expect(Array(decoded) == Array(json.utf8))
            #expect(claim == Data(json.utf8).base64EncodedString())
            #expect(verified.advancedCommerceRequest == request)
            #expect(verified.kind == .advancedCommerce)
        }
    }

    @Test func optionalFieldsAreLeftOutAndRequestInfoOptionalsWritten() throws {
        let request = AC.InAppRequest.createSubscription(
            AC.SubscriptionCreateRequest(
                requestInfo: AC.RequestInfo(requestReferenceId: Self.referenceId, consistencyToken: "abc"),
                currency: "USD", taxCode: "T",
                descriptors: AC.Descriptors(description: "d", displayName: "n"),
                items: [AC.SubscriptionItem(sku: "s", description: "d", displayName: "n", price: 1)], period: .oneWeek))
        #expect(
            String(decoding: request.jsonBytes, as: UTF8.self)
                == #"{"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"9b4c8f0e-1d2a-4e3b-8c5d-6f7a8b9c0d1e","consistencyToken":"abc"},"currency":"USD","taxCode":"T","descriptors":{"description":"d","displayName":"n"},"items":[{"SKU":"s","description":"d","displayName":"n","price":1}],"period":"P1W"}"#
        )
    }

    // MARK: - Validation: boundaries that pass

    @Test func limitsAreInclusive() throws {
        var charge = Self.oneTimeCharge()
        charge.item.description = String(repeating: "d", count: 45)
        charge.item.displayName = String(repeating: "n", count: 30)
        charge.item.sku = String(repeating: "s", count: 128)
        charge.item.price = 0
        try AC.InAppRequest.oneTimeCharge(charge).validate()
        // Length counts UTF-16 code units: 15 emoji (2 units each) fill displayName exactly.
        charge.item.displayName = String(repeating: "🎉", count: 15)
        try AC.InAppRequest.oneTimeCharge(charge).validate()
        charge.item.displayName = String(repeating: "é", count: 30)
        try AC.InAppRequest.oneTimeCharge(charge).validate()

        for count in [1, 12] {
            var create = Self.createSubscription()
            create.items[0].offer?.periodCount = count
            try AC.InAppRequest.createSubscription(create).validate()
        }
        #expect(AC.descriptionMaximum == 45)
        #expect(AC.displayNameMaximum == 30)
        #expect(AC.skuMaximum == 128)
        #expect(AC.periodCountRange == 1...12)
    }

    @Test("items, taxCode, transactionId and consistencyToken are bounded: at the bound signed, one over refused")
    func boundedFields() throws {
        #expect(AC.itemsMaximum == 100 && AC.taxCodeMaximum == 64)
        #expect(AC.transactionIdMaximum == 64 && AC.consistencyTokenMaximum == 512)
        func outcome(_ request: AC.InAppRequest) -> RequestValidationError? {
            do {
                try request.validate()
                return nil
            } catch {
                return error
            }
        }
        // Each list with `count` entries, and the field its refusal names.
        let item = AC.SubscriptionItem(sku: "s", description: "d", displayName: "n", price: 1)
        let sku = AC.SKUItem(sku: "s")
        let add = AC.AddItem(sku: "s", description: "d", displayName: "n", price: 1)
        let change = AC.ChangeItem(
            sku: "s", currentSKU: "c", description: "d", displayName: "n", price: 1, effective: .immediately,
            reason: .upgrade)
        let lists: [(field: String, make: (Int) -> AC.InAppRequest)] = [
            (
                "items",
                { count in
                    var request = Self.createSubscription()
                    request.items = Array(repeating: item, count: count)
                    return .createSubscription(request)
                }
            ),
            (
                "items",
                { count in
                    var request = Self.reactivateSubscription()
                    request.items = Array(repeating: sku, count: count)
                    return .reactivateSubscription(request)
                }
            ),
            (
                "addItems",
                { count in
                    var request = Self.modifySubscription()
                    request.addItems = Array(repeating: add, count: count)
                    return .modifySubscription(request)
                }
            ),
            (
                "changeItems",
                { count in
                    var request = Self.modifySubscription()
                    request.changeItems = Array(repeating: change, count: count)
                    return .modifySubscription(request)
                }
            ),
            (
                "removeItems",
                { count in
                    var request = Self.modifySubscription()
                    request.removeItems = Array(repeating: sku, count: count)
                    return .modifySubscription(request)
                }
            ),
        ]
        for (field, make) in lists {
            let over = AC.itemsMaximum + 1
            #expect(outcome(make(AC.itemsMaximum)) == nil, "\(field)")
            #expect(
                outcome(make(over))
                    == .outOfRange(field: field, expected: "at most \(AC.itemsMaximum) items, found \(over)"))
        }
        // Each bounded string with `text`, its bound, and the field its refusal names.
        let strings: [(field: String, maximum: Int, make: (String) -> AC.InAppRequest)] = [
            (
                "taxCode", AC.taxCodeMaximum,
                { text in
                    var request = Self.oneTimeCharge()
                    request.taxCode = text
                    return .oneTimeCharge(request)
                }
            ),
            (
                "requestInfo.consistencyToken", AC.consistencyTokenMaximum,
                { text in
                    var request = Self.oneTimeCharge()
                    request.requestInfo.consistencyToken = text
                    return .oneTimeCharge(request)
                }
            ),
            (
                "taxCode", AC.taxCodeMaximum,
                { text in
                    var request = Self.createSubscription()
                    request.taxCode = text
                    return .createSubscription(request)
                }
            ),
            (
                "previousTransactionId", AC.transactionIdMaximum,
                { text in
                    var request = Self.createSubscription()
                    request.previousTransactionId = text
                    return .createSubscription(request)
                }
            ),
            (
                "transactionId", AC.transactionIdMaximum,
                { text in
                    var request = Self.modifySubscription()
                    request.transactionId = text
                    return .modifySubscription(request)
                }
            ),
            (
                "taxCode", AC.taxCodeMaximum,
                { text in
                    var request = Self.modifySubscription()
                    request.taxCode = text
                    return .modifySubscription(request)
                }
            ),
            (
                "transactionId", AC.transactionIdMaximum,
                { text in
                    var request = Self.reactivateSubscription()
                    request.transactionId = text
                    return .reactivateSubscription(request)
                }
            ),
        ]
        for (field, maximum, make) in strings {
            #expect(outcome(make(String(repeating: "9", count: maximum))) == nil, "\(field)")
            #expect(
                outcome(make(String(repeating: "9", count: maximum + 1)))
                    == .tooLong(field: field, maximum: maximum, actual: maximum + 1))
        }
        // Signing applies them: the CLI, `offerkit batch` and the service sign through OfferSigner.
        let signer = try Demo.signer()
        #expect(throws: RequestValidationError.self) { try signer.sign(lists[0].make(AC.itemsMaximum + 1)) }
    }

    // MARK: - Validation: every rule fails with its case and path

    private static let priceExpectation = "an integer ≥ 0, in milli-units of the currency"
    private static let periodCountExpectation = "an integer from 1 to 12"
    private static let currencyExpectation = "3 upper-case letters (an ISO 4217 currency code such as USD)"
    private static let storefrontExpectation = "3 upper-case letters (an ISO 3166-1 alpha-3 code such as USA)"

    static func failing() -> [(String, AC.InAppRequest, RequestValidationError)] {
        var cases: [(String, AC.InAppRequest, RequestValidationError)] = []
        func charge(
            _ name: String, _ error: RequestValidationError, _ change: (inout AC.OneTimeChargeCreateRequest) -> Void
        ) {
            var request = oneTimeCharge()
            change(&request)
            cases.append((name, .oneTimeCharge(request), error))
        }
        func create(
            _ name: String, _ error: RequestValidationError, _ change: (inout AC.SubscriptionCreateRequest) -> Void
        ) {
            var request = createSubscription()
            change(&request)
            cases.append((name, .createSubscription(request), error))
        }
        func modify(
            _ name: String, _ error: RequestValidationError, _ change: (inout AC.SubscriptionModifyInAppRequest) -> Void
        ) {
            var request = modifySubscription()
            change(&request)
            cases.append((name, .modifySubscription(request), error))
        }
        func reactivate(
            _ name: String, _ error: RequestValidationError,
            _ change: (inout AC.SubscriptionReactivateInAppRequest) -> Void
        ) {
            var request = reactivateSubscription()
            change(&request)
            cases.append((name, .reactivateSubscription(request), error))
        }

        // One-time charge.
        charge("description 46", .tooLong(field: "item.description", maximum: 45, actual: 46)) {
            $0.item.description = String(repeating: "d", count: 46)
        }
        charge("displayName 31", .tooLong(field: "item.displayName", maximum: 30, actual: 31)) {
            $0.item.displayName = String(repeating: "n", count: 31)
        }
        charge("displayName 16 emoji", .tooLong(field: "item.displayName", maximum: 30, actual: 32)) {
            $0.item.displayName = String(repeating: "🎉", count: 16)
        }
        charge("SKU 129", .tooLong(field: "item.SKU", maximum: 128, actual: 129)) {
            $0.item.sku = String(repeating: "s", count: 129)
        }
        charge("empty SKU", .empty(field: "item.SKU")) { $0.item.sku = "" }
        charge("empty description", .empty(field: "item.description")) { $0.item.description = "" }
        charge("empty displayName", .empty(field: "item.displayName")) { $0.item.displayName = "" }
        charge("negative price", .outOfRange(field: "item.price", expected: priceExpectation)) { $0.item.price = -1 }
        charge("currency usd", .invalidFormat(field: "currency", expected: currencyExpectation)) { $0.currency = "usd" }
        charge("currency US", .invalidFormat(field: "currency", expected: currencyExpectation)) { $0.currency = "US" }
        charge("currency USDX", .invalidFormat(field: "currency", expected: currencyExpectation)) {
            $0.currency = "USDX"
        }
        charge("currency empty", .invalidFormat(field: "currency", expected: currencyExpectation)) { $0.currency = "" }
        charge("storefront US", .invalidFormat(field: "storefront", expected: storefrontExpectation)) {
            $0.storefront = "US"
        }
        charge("storefront usa", .invalidFormat(field: "storefront", expected: storefrontExpectation)) {
            $0.storefront = "usa"
        }
        charge("empty taxCode", .empty(field: "taxCode")) { $0.taxCode = "" }
        charge("empty consistencyToken", .empty(field: "requestInfo.consistencyToken")) {
            $0.requestInfo.consistencyToken = ""
        }
        charge(
            "control character in SKU",
            .invalidFormat(field: "item.SKU", expected: "text without control characters or U+2063")
        ) { $0.item.sku = "a\u{0}b" }

        // Create subscription.
        create("empty items", .empty(field: "items")) { $0.items = [] }
        create("periodCount 0", .outOfRange(field: "items[1].offer.periodCount", expected: periodCountExpectation)) {
            $0.items[1].offer = AC.Offer(period: .oneWeek, periodCount: 0, price: 100, reason: .retention)
        }
        create("periodCount 13", .outOfRange(field: "items[0].offer.periodCount", expected: periodCountExpectation)) {
            $0.items[0].offer?.periodCount = 13
        }
        create("negative offer price", .outOfRange(field: "items[0].offer.price", expected: priceExpectation)) {
            $0.items[0].offer?.price = -5
        }
        create("negative item price", .outOfRange(field: "items[1].price", expected: priceExpectation)) {
            $0.items[1].price = -1
        }
        create("items[1].SKU 129", .tooLong(field: "items[1].SKU", maximum: 128, actual: 129)) {
            $0.items[1].sku = String(repeating: "x", count: 129)
        }
        create("descriptors.description 46", .tooLong(field: "descriptors.description", maximum: 45, actual: 46)) {
            $0.descriptors.description = String(repeating: "d", count: 46)
        }
        create("descriptors.displayName 31", .tooLong(field: "descriptors.displayName", maximum: 30, actual: 31)) {
            $0.descriptors.displayName = String(repeating: "n", count: 31)
        }
        create("empty previousTransactionId", .empty(field: "previousTransactionId")) { $0.previousTransactionId = "" }
        create("create currency usd", .invalidFormat(field: "currency", expected: currencyExpectation)) {
            $0.currency = "usd"
        }
        create("create storefront US", .invalidFormat(field: "storefront", expected: storefrontExpectation)) {
            $0.storefront = "US"
        }
        create("create empty taxCode", .empty(field: "taxCode")) { $0.taxCode = "" }

        // Modify subscription.
        modify("empty transactionId", .empty(field: "transactionId")) { $0.transactionId = "" }
        modify("empty addItems", .empty(field: "addItems")) { $0.addItems = [] }
        modify("empty changeItems", .empty(field: "changeItems")) { $0.changeItems = [] }
        modify("empty removeItems", .empty(field: "removeItems")) { $0.removeItems = [] }
        modify("currentSKU 129", .tooLong(field: "changeItems[0].currentSKU", maximum: 128, actual: 129)) {
            $0.changeItems?[0].currentSKU = String(repeating: "c", count: 129)
        }
        modify("empty currentSKU", .empty(field: "changeItems[0].currentSKU")) { $0.changeItems?[0].currentSKU = "" }
        modify("changeItems description 46", .tooLong(field: "changeItems[0].description", maximum: 45, actual: 46)) {
            $0.changeItems?[0].description = String(repeating: "d", count: 46)
        }
        modify("addItems proratedPrice", .outOfRange(field: "addItems[0].proratedPrice", expected: priceExpectation)) {
            $0.addItems?[0].proratedPrice = -1
        }
        modify(
            "addItems periodCount 13",
            .outOfRange(field: "addItems[0].offer.periodCount", expected: periodCountExpectation)
        ) {
            $0.addItems?[0].offer?.periodCount = 13
        }
        modify(
            "changeItems proratedPrice", .outOfRange(field: "changeItems[0].proratedPrice", expected: priceExpectation)
        ) {
            $0.changeItems?[0].proratedPrice = -1
        }
        modify("removeItems empty SKU", .empty(field: "removeItems[0].SKU")) { $0.removeItems = [AC.SKUItem(sku: "")] }
        modify("modify descriptors displayName 31", .tooLong(field: "descriptors.displayName", maximum: 30, actual: 31))
        {
            $0.descriptors?.displayName = String(repeating: "n", count: 31)
        }
        modify("modify descriptors empty description", .empty(field: "descriptors.description")) {
            $0.descriptors?.description = ""
        }
        modify("modify currency US", .invalidFormat(field: "currency", expected: currencyExpectation)) {
            $0.currency = "US"
        }
        modify("modify empty taxCode", .empty(field: "taxCode")) { $0.taxCode = "" }
        modify("modify storefront US", .invalidFormat(field: "storefront", expected: storefrontExpectation)) {
            $0.storefront = "US"
        }

        // Reactivate subscription.
        reactivate("reactivate empty transactionId", .empty(field: "transactionId")) { $0.transactionId = "" }
        reactivate("reactivate empty items", .empty(field: "items")) { $0.items = [] }
        reactivate("reactivate items[1].SKU 129", .tooLong(field: "items[1].SKU", maximum: 128, actual: 129)) {
            $0.items?[1].sku = String(repeating: "s", count: 129)
        }
        reactivate("reactivate storefront US", .invalidFormat(field: "storefront", expected: storefrontExpectation)) {
            $0.storefront = "US"
        }
        return cases
    }

    @Test func everyRuleFailsWithItsCaseAndPath() throws {
        let signer = try TestJWS.fixedSigner()
        let cases = Self.failing()
        #expect(cases.count > 40)
        for (name, request, expected) in cases {
            var thrown: RequestValidationError?
            do {
                try request.validate()
            } catch {
                thrown = error
            }
            #expect(thrown == expected, "\(name)")
            #expect(thrown?.field == expected.field, "\(name)")
            // The description names the field path.
            #expect(thrown?.errorDescription?.contains(expected.field) == true, "\(name)")
            // Signing runs the same checks.
            #expect(TestJWS.validationError { _ = try signer.sign(request) } == expected, "\(name)")
            // And decoding the (unvalidated) JSON reports it as invalidRequest with the same path.
            var decodeError: RequestDecodingError?
            do {
                _ = try AC.InAppRequest.decode(json: request.jsonBytes)
            } catch {
                decodeError = error
            }
            #expect(decodeError == .invalidRequest(expected), "\(name)")
            #expect(decodeError?.path == expected.field, "\(name)")
        }
    }

    @Test func validationErrorDescriptions() {
        #expect(
            RequestValidationError.tooLong(field: "item.description", maximum: 45, actual: 46).errorDescription
                == "item.description is 46 characters long: at most 45 are allowed.")
        #expect(RequestValidationError.empty(field: "items").errorDescription == "items is empty: a value is required.")
        #expect(
            RequestValidationError.invalidFormat(field: "currency", expected: "X").localizedDescription
                == "currency is invalid: expected X.")
        #expect(
            RequestValidationError.outOfRange(field: "items[1].offer.periodCount", expected: "1 to 12").errorDescription
                == "items[1].offer.periodCount is out of range: expected 1 to 12.")
    }

    // MARK: - decode(json:) errors

    private func decodeError(_ json: String) -> RequestDecodingError? {
        do {
            _ = try AC.InAppRequest.decode(json: Array(json.utf8))
            Issue.record("decoded without error: \(json)")
            return nil
        } catch {
            return error
        }
    }

    /// `json` with the first occurrence of `target` replaced.
    private func edit(_ json: String, _ target: String, _ replacement: String) -> String {
        let range = json.range(of: target)
        #expect(range != nil, "\(target) not in the JSON")
        return range.map { json.replacingCharacters(in: $0, with: replacement) } ?? json
    }

    @Test func decodeReportsMissingFieldPath() {
        let noTaxCode = edit(Self.oneTimeChargeJSON, #""taxCode":"C003-00-2","#, "")
        #expect(decodeError(noTaxCode) == .missingField(path: "taxCode", hint: nil))

        let noPrice = edit(Self.createSubscriptionJSON, #","price":5990"#, "")
        #expect(decodeError(noPrice) == .missingField(path: "items[1].price", hint: nil))

        let noReference = edit(Self.reactivateSubscriptionJSON, Self.infoJSON, "{}")
        #expect(decodeError(noReference) == .missingField(path: "requestInfo.requestReferenceId", hint: nil))

        let noCurrentSKU = edit(Self.modifySubscriptionJSON, #""currentSKU":"tier.silver","#, "")
        let error = decodeError(noCurrentSKU)
        #expect(error == .missingField(path: "changeItems[0].currentSKU", hint: nil))
        #expect(error?.path == "changeItems[0].currentSKU")
        #expect(error?.errorDescription == "changeItems[0].currentSKU is missing.")

        #expect(decodeError(#"{"version":"1"}"#) == .missingField(path: "operation", hint: nil))
    }

    @Test func decodeReportsWrongTypePath() {
        let priceString = edit(Self.oneTimeChargeJSON, #""price":4990"#, #""price":"4990""#)
        #expect(decodeError(priceString) == .wrongType(path: "item.price", expected: "an integer"))

        let retain = edit(Self.modifySubscriptionJSON, #""retainBillingCycle":true"#, #""retainBillingCycle":"yes""#)
        #expect(decodeError(retain) == .wrongType(path: "retainBillingCycle", expected: "a boolean"))

        let skuNumber = edit(Self.createSubscriptionJSON, #""SKU":"premium.sports""#, #""SKU":42"#)
        let error = decodeError(skuNumber)
        #expect(error == .wrongType(path: "items[1].SKU", expected: "a string"))
        #expect(error?.errorDescription == "items[1].SKU has the wrong type: expected a string.")

        let nullTax = edit(Self.oneTimeChargeJSON, #""taxCode":"C003-00-2""#, #""taxCode":null"#)
        #expect(decodeError(nullTax)?.path == "taxCode")

        // Foundation reports these without a path ("not valid JSON"); decode(json:) names the field.
        let fractional = edit(Self.createSubscriptionJSON, #""periodCount":3"#, #""periodCount":3.5"#)
        #expect(
            decodeError(fractional)
                == .wrongType(path: "items[0].offer.periodCount", expected: "an integer, found a fractional number 3.5")
        )
        let decimalPrice = edit(Self.oneTimeChargeJSON, #""price":4990"#, #""price":4.99"#)
        #expect(
            decodeError(decimalPrice)
                == .wrongType(path: "item.price", expected: "an integer, found a fractional number 4.99"))
        let hugePrice = edit(Self.createSubscriptionJSON, #""price":5990"#, #""price":99999999999999999999"#)
        #expect(
            decodeError(hugePrice)
                == .wrongType(
                    path: "items[1].price",
                    expected: "an integer, found a whole number 99999999999999999999 outside the 64-bit range"))

        // Not an object at all.
        for text in ["[]", "null", "42", #""text""#] {
            let error = decodeError(text)
            #expect(error == .wrongType(path: "", expected: "a JSON object"), "\(text)")
            #expect(error?.errorDescription == "The request has the wrong type: expected a JSON object.", "\(text)")
        }
    }

    @Test func decodeReportsBadEnumValueWithAllowedValues() {
        let period = edit(Self.createSubscriptionJSON, #""period":"P1M","previous"#, #""period":"P2Y","previous"#)
        guard case .invalidValue(let path, let reason)? = decodeError(period) else {
            Issue.record("expected invalidValue")
            return
        }
        #expect(path == "period")
        #expect(reason.contains("P2Y"))
        #expect(reason.contains("P1W, P1M, P2M, P3M, P6M, P1Y"))

        // Any case is read (`acquisition` is ACQUISITION, signed in Apple's spelling); a name that is none is refused.
        let lowerCase = edit(Self.createSubscriptionJSON, #""reason":"ACQUISITION""#, #""reason":"acquisition""#)
        #expect(throws: Never.self) { try AC.InAppRequest.decode(json: Array(lowerCase.utf8)) }
        let offerReason = edit(Self.createSubscriptionJSON, #""reason":"ACQUISITION""#, #""reason":"acquired""#)
        guard case .invalidValue(let offerPath, let offerText)? = decodeError(offerReason) else {
            Issue.record("expected invalidValue")
            return
        }
        #expect(offerPath == "items[0].offer.reason")
        #expect(offerText.contains("ACQUISITION, WIN_BACK, RETENTION"))

        let effective = edit(Self.modifySubscriptionJSON, #""effective":"IMMEDIATELY""#, #""effective":"LATER""#)
        guard case .invalidValue(let effectivePath, let effectiveText)? = decodeError(effective) else {
            Issue.record("expected invalidValue")
            return
        }
        #expect(effectivePath == "changeItems[0].effective")
        #expect(effectiveText.contains("IMMEDIATELY, NEXT_BILL_CYCLE"))

        let offerPeriod = edit(
            Self.createSubscriptionJSON, #""period":"P1M","periodCount""#, #""period":"P5D","periodCount""#)
        guard case .invalidValue(let offerPeriodPath, let offerPeriodText)? = decodeError(offerPeriod) else {
            Issue.record("expected invalidValue")
            return
        }
        #expect(offerPeriodPath == "items[0].offer.period")
        #expect(offerPeriodText.contains("P3D, P1W, P2W, P1M, P2M, P3M, P6M, P9M, P1Y"))

        let changeReason = edit(Self.modifySubscriptionJSON, #""reason":"UPGRADE""#, #""reason":"SIDEGRADE""#)
        guard case .invalidValue(_, let changeText)? = decodeError(changeReason) else {
            Issue.record("expected invalidValue")
            return
        }
        #expect(changeText.contains("UPGRADE, DOWNGRADE, APPLY_OFFER"))
    }

    @Test func decodeRejectsUnknownOperationAndVersion() {
        let operation = edit(Self.reactivateSubscriptionJSON, "REACTIVATE_SUBSCRIPTION", "CANCEL_SUBSCRIPTION")
        guard case .invalidValue(let path, let reason)? = decodeError(operation) else {
            Issue.record("expected invalidValue")
            return
        }
        #expect(path == "operation")
        #expect(reason.contains("CANCEL_SUBSCRIPTION"))
        #expect(
            reason.contains("CREATE_ONE_TIME_CHARGE, CREATE_SUBSCRIPTION, MODIFY_SUBSCRIPTION, REACTIVATE_SUBSCRIPTION")
        )

        let version = edit(Self.reactivateSubscriptionJSON, #""version":"1""#, #""version":"2""#)
        guard case .invalidValue(let versionPath, let versionReason)? = decodeError(version) else {
            Issue.record("expected invalidValue")
            return
        }
        #expect(versionPath == "version")
        #expect(versionReason.contains("\"2\""))

        let numericVersion = edit(Self.reactivateSubscriptionJSON, #""version":"1""#, #""version":1"#)
        #expect(decodeError(numericVersion)?.path == "version")
    }

    @Test func decodeAcceptsAbsentVersionAndNullOptionals() throws {
        let noVersion = edit(Self.reactivateSubscriptionJSON, #""version":"1","#, "")
        #expect(
            try AC.InAppRequest.decode(json: Array(noVersion.utf8))
                == .reactivateSubscription(Self.reactivateSubscription()))
        let nullStorefront = edit(Self.oneTimeChargeJSON, #""storefront":"USA""#, #""storefront":null"#)
        var expected = Self.oneTimeCharge()
        expected.storefront = nil
        #expect(try AC.InAppRequest.decode(json: Array(nullStorefront.utf8)) == .oneTimeCharge(expected))
        // Whitespace and member order do not matter to decoding.
        let reordered =
            #"{ "transactionId" : "2000000000000005", "requestInfo": { "requestReferenceId": "9B4C8F0E-1D2A-4E3B-8C5D-6F7A8B9C0D1E" }, "operation": "REACTIVATE_SUBSCRIPTION" }"#
        #expect(
            try AC.InAppRequest.decode(json: Array(reordered.utf8))
                == .reactivateSubscription(.init(requestInfo: Self.info, transactionId: "2000000000000005")))
    }

    @Test func decodeRejectsUnknownFields() {
        // A typo in place of SKU: the required SKU is missing, and the hint names the near miss.
        let typo = edit(Self.createSubscriptionJSON, #"{"SKU":"premium.news""#, #"{"sku":"premium.news""#)
        guard case .missingField(let path, let hint)? = decodeError(typo) else {
            Issue.record("expected missingField")
            return
        }
        #expect(path == "items[0].SKU")
        #expect(hint?.contains("\"sku\"") == true)
        #expect(decodeError(typo)?.errorDescription?.contains("SKU") == true)
        #expect(decodeError(typo)?.errorDescription?.contains("sku") == true)

        // Both spellings: the extra one is an unknown field, named by its path.
        let extra = edit(Self.createSubscriptionJSON, #"{"SKU":"premium.news""#, #"{"SKU":"premium.news","sku":"x""#)
        let error = decodeError(extra)
        #expect(error == .unknownField(path: "items[0].sku"))
        #expect(error?.path == "items[0].sku")
        #expect(error?.errorDescription == "items[0].sku is not a field of this request type.")

        let topLevel = edit(Self.oneTimeChargeJSON, #""currency":"USD","#, #""currency":"USD","price":1,"#)
        #expect(decodeError(topLevel) == .unknownField(path: "price"))

        let nested = edit(Self.createSubscriptionJSON, #""periodCount":3,"#, #""periodCount":3,"count":3,"#)
        #expect(decodeError(nested) == .unknownField(path: "items[0].offer.count"))

        let inInfo = edit(
            Self.reactivateSubscriptionJSON, #""requestReferenceId""#, #""extra":true,"requestReferenceId""#)
        #expect(decodeError(inInfo) == .unknownField(path: "requestInfo.extra"))

        // A field of another request type.
        let foreign = edit(
            Self.reactivateSubscriptionJSON, #""storefront":"GBR""#, #""storefront":"GBR","retainBillingCycle":true"#)
        #expect(decodeError(foreign) == .unknownField(path: "retainBillingCycle"))
    }

    @Test func decodeRejectsInvalidJSON() {
        for text in [
            "", "{", "nul", #"{"operation":"CREATE_ONE_TIME_CHARGE",}"#, "{} {}",
            #"{"operation":"REACTIVATE_SUBSCRIPTION","operation":"REACTIVATE_SUBSCRIPTION"}"#,
        ] {
            let error = decodeError(text)
            if case .invalidJSON(let reason)? = error {
                #expect(!reason.isEmpty, "\(text)")
                #expect(error?.path == nil)
                #expect(error?.errorDescription?.hasPrefix("The request is not valid JSON") == true)
            } else {
                Issue.record("\(text): expected invalidJSON, got \(String(describing: error))")
            }
        }
        // Invalid UTF-8.
        do {
            _ = try AC.InAppRequest.decode(json: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])
            Issue.record("invalid UTF-8 decoded")
        } catch {
            if case .invalidJSON = error {} else { Issue.record("expected invalidJSON, got \(error)") }
        }
    }

    @Test func decodeReportsBadUUIDPath() {
        let badReference = edit(Self.reactivateSubscriptionJSON, "9b4c8f0e-1d2a-4e3b-8c5d-6f7a8b9c0d1e", "not-a-uuid")
        #expect(decodeError(badReference)?.path == "requestInfo.requestReferenceId")
        let badToken = edit(Self.oneTimeChargeJSON, "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", "12345")
        #expect(decodeError(badToken)?.path == "requestInfo.appAccountToken")
    }
}
