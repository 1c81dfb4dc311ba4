import Foundation
import Hummingbird
import HummingbirdTesting
import OfferJSON
import OfferService
import OfferSigning
import Testing

@Suite("POST /v1/signatures/advanced-commerce")
struct SignAdvancedCommerceTests {
    static let path = "/v1/signatures/advanced-commerce"
    let route = OperationRoute(path: Self.path)

    /// A request of each operation and the exact JSON that must be signed into the `request` claim.
    struct SignedCase: Sendable, CustomTestStringConvertible {
        let operation: String
        let request: String
        /// `nil` when it is `request` itself.
        let signed: String?
        var testDescription: String { operation }
    }

    static let signedCases: [SignedCase] = [
        SignedCase(
            operation: "CREATE_ONE_TIME_CHARGE",
            request: """
                {"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":\
                "f55df048-4cd8-4261-b404-b6f813ff70e5"},"currency":"USD","taxCode":"C003-00-2","item":{"SKU":\
                "com.example.tokens.500","description":"500 tokens for the word game","displayName":"500 Tokens",\
                "price":4990},"storefront":"USA"}
                """,
            signed: nil),
        SignedCase(
            operation: "CREATE_SUBSCRIPTION",
            request: """
                {"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":\
                "1b6a6f0e-8a43-4c2b-9d8e-2f0a7c5e4b31","appAccountToken":"e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c"},\
                "currency":"EUR","taxCode":"C003-00-2","descriptors":{"description":"Monthly news",\
                "displayName":"News Monthly"},"items":[{"SKU":"com.example.news.basic","description":"Every article",\
                "displayName":"News Basic","price":4990,"offer":{"period":"P1M","periodCount":3,"price":990,\
                "reason":"ACQUISITION"}},{"SKU":"com.example.news.sports","description":"Sports",\
                "displayName":"Sports","price":1990}],"period":"P1M","previousTransactionId":"2000000111111111",\
                "storefront":"DEU"}
                """,
            signed: nil),
        SignedCase(
            operation: "MODIFY_SUBSCRIPTION",
            request: """
                {"operation":"MODIFY_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":\
                "7c2d9e14-3b5a-4f6c-8d7e-9a0b1c2d3e4f","consistencyToken":"ct-1"},"transactionId":"2000000123456789",\
                "retainBillingCycle":false,"addItems":[{"SKU":"com.example.news.sports","description":"Sports add-on",\
                "displayName":"Sports","price":1990,"offer":{"period":"P1W","periodCount":2,"price":0,\
                "reason":"RETENTION"},"proratedPrice":995}],"changeItems":[{"SKU":"com.example.news.premium",\
                "currentSKU":"com.example.news.basic","description":"Premium","displayName":"News Premium",\
                "price":9990,"effective":"NEXT_BILL_CYCLE","reason":"UPGRADE","proratedPrice":2500}],\
                "removeItems":[{"SKU":"com.example.news.puzzles"}],"periodChange":{"effective":"NEXT_BILL_CYCLE",\
                "period":"P1Y"},"descriptors":{"effective":"IMMEDIATELY","description":"Premium news",\
                "displayName":"News Premium"},"currency":"USD","taxCode":"C003-00-2","storefront":"USA"}
                """,
            signed: nil),
        // Members in another order, no version, an upper-case UUID: signed in the canonical form.
        SignedCase(
            operation: "REACTIVATE_SUBSCRIPTION",
            request: """
                {"transactionId":"2000000123456789","items":[{"SKU":"com.example.news.premium"}],\
                "requestInfo":{"requestReferenceId":"3E9F5A27-6C1B-4D8A-B2E3-4F5A6B7C8D9E"},\
                "operation":"REACTIVATE_SUBSCRIPTION"}
                """,
            signed: """
                {"operation":"REACTIVATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":\
                "3e9f5a27-6c1b-4d8a-b2e3-4f5a6b7c8d9e"},"transactionId":"2000000123456789",\
                "items":[{"SKU":"com.example.news.premium"}]}
                """),
    ]

    @Test(
        "signs each operation's request; PyJWT and cryptography verify the JWS and its request claim",
        .enabled(IndependentVerifier.pythonReason) { await IndependentVerifier.pythonEnabled },
        arguments: signedCases)
    func signs(_ signedCase: SignedCase) async throws {
        let service = try ServiceFixtures.service(clock: .fixed(Date(timeIntervalSince1970: 1_763_712_000)))
        let response = try await route.post(Self.body(signedCase.request), to: service)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(response.string("keyId") == ServiceFixtures.keyId)
        #expect(response.json?["issuedAt"] == .number("1763712000"))
        let jws = try #require(response.string("jws"))
        let verified = try await #require(try await IndependentVerifier.verify([(jws, "advanced-commerce-api")]).first)
        verified.expectDemoKeyHeader()
        let claims = verified.claims
        #expect(claims.keys == ["iss", "iat", "aud", "bid", "nonce", "request"])
        #expect(claims["iss"] == .string(ServiceFixtures.issuerId))
        #expect(claims["iat"] == .number("1763712000"))
        #expect(claims["bid"] == .string(ServiceFixtures.app))
        let nonce = try #require(response.string("nonce"))
        #expect(claims["nonce"] == .string(nonce))
        guard case .string(let request)? = claims["request"] else {
            Issue.record("the request claim is not a string: \(claims.text())")
            return
        }
        #expect(request.utf8.count % 4 == 0, "the request claim must be padded standard base64")
        let decoded = try #require(Data(base64Encoded: request))
        let expected = signedCase.signed ?? signedCase.request
        #expect(String(decoding: decoded, as: UTF8.self) == expected)
        #expect(service.state.metrics.exposition().contains(#"offerkit_signatures_total{type="advanced-commerce"} 1"#))
    }

    @Test(
        "uses the given nonce, lower-cased",
        .enabled(IndependentVerifier.pythonReason) { await IndependentVerifier.pythonEnabled })
    func givenNonce() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let json =
                #"{"bundleId":"com.example.offerkit.other","request":"# + Self.signedCases[0].request
                + #","nonce":"9F2D3C1E-6B1F-4A9E-8C8E-2A4F5D6B7C8D"}"#
            let response = try await client.send(.post, Self.path, json: json, key: ServiceFixtures.admin.secret)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.string("nonce") == "9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d")
            let jws = try #require(response.string("jws"))
            let verified = try await #require(
                try await IndependentVerifier.verify([(jws, "advanced-commerce-api")]).first)
            #expect(verified.claims["nonce"] == .string("9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d"))
            #expect(verified.claims["bid"] == .string(ServiceFixtures.otherApp))
        }
    }

    /// An invalid request, and the field the problem must name.
    struct InvalidCase: Sendable, CustomTestStringConvertible {
        let field: String
        let body: String
        /// Words of the detail that show which rule refused the field.
        var detail: String?
        var testDescription: String { field }
    }

    static let invalidCases: [InvalidCase] = {
        let charge = { (item: String, extra: String) in
            body(
                #"{"operation":"CREATE_ONE_TIME_CHARGE","requestInfo":{"requestReferenceId":"# + uuid
                    + #"},"currency":"USD","taxCode":"C003-00-2","item":"# + item + extra + "}")
        }
        let item = { (sku: String, description: String, displayName: String, price: String) in
            #"{"SKU":"\#(sku)","description":"\#(description)","displayName":"\#(displayName)","price":\#(price)}"#
        }
        let goodItem = item("sku.1", "A description", "A name", "100")
        let subscription = { (items: String) in
            body(
                #"{"operation":"CREATE_SUBSCRIPTION","requestInfo":{"requestReferenceId":"# + uuid
                    + #"},"currency":"USD","taxCode":"T","descriptors":{"description":"d","displayName":"n"},"#
                    + #""items":"# + items + #","period":"P1M"}"#)
        }
        let modify = { (fields: String) in
            body(
                #"{"operation":"MODIFY_SUBSCRIPTION","requestInfo":{"requestReferenceId":"# + uuid
                    + #"},"transactionId":"1""# + fields + "}")
        }
        let offerItem = { (periodCount: String) in
            #"[{"SKU":"s","description":"d","displayName":"n","price":1,"offer":{"period":"P1M","periodCount":"#
                + periodCount + #","price":0,"reason":"WIN_BACK"}}]"#
        }
        let emoji = String(repeating: "\u{1F600}", count: 5)
        return [
            InvalidCase(field: "request", body: #"{"bundleId":"com.example.offerkit.demo"}"#),
            InvalidCase(field: "request", body: #"{"bundleId":"com.example.offerkit.demo","request":"{}"}"#),
            InvalidCase(
                field: "request.operation", body: body(#"{"requestInfo":{"requestReferenceId":"# + uuid + "}}")),
            InvalidCase(
                field: "request.operation",
                body: body(#"{"operation":"REFUND","requestInfo":{"requestReferenceId":"# + uuid + "}}")),
            InvalidCase(field: "request.version", body: charge(goodItem, #","version":"2""#)),
            InvalidCase(
                field: "request.requestInfo.requestReferenceId",
                body: body(
                    #"""
                    {"operation":"CREATE_ONE_TIME_CHARGE","requestInfo":{},"currency":"USD","taxCode":"T","item":{}}
                    """#)),
            InvalidCase(
                field: "request.requestInfo.requestReferenceId",
                body: body(
                    #"""
                    {"operation":"REACTIVATE_SUBSCRIPTION","requestInfo":{"requestReferenceId":"nope"},"transactionId":"1"}
                    """#)),
            InvalidCase(field: "request.item.price", body: charge(item("s", "d", "n", #""4.99""#), "")),
            InvalidCase(field: "request.item.price", body: charge(item("s", "d", "n", "4.99"), "")),
            InvalidCase(field: "request.item.price", body: charge(item("s", "d", "n", "-1"), "")),
            InvalidCase(
                field: "request.item.sku",
                body: charge(#"{"sku":"s","description":"d","displayName":"n","price":1}"#, "")),
            InvalidCase(
                field: "request.item.SKU", body: charge(item(String(repeating: "s", count: 129), "d", "n", "1"), "")),
            InvalidCase(field: "request.item.SKU", body: charge(item("", "d", "n", "1"), "")),
            // 46 characters: refused by the schema.
            InvalidCase(
                field: "request.item.description",
                body: charge(item("s", String(repeating: "d", count: 46), "n", "1"), "")),
            // 45 code points but 50 UTF-16 code units: passes the schema, refused by the library.
            InvalidCase(
                field: "request.item.description",
                body: charge(item("s", String(repeating: "d", count: 40) + emoji, "n", "1"), ""),
                detail: "is 50 characters long: at most 45"),
            InvalidCase(
                field: "request.item.displayName",
                body: charge(item("s", "d", String(repeating: "n", count: 25) + emoji, "1"), ""),
                detail: "is 35 characters long: at most 30"),
            // The library's upper-case rule.
            InvalidCase(
                field: "request.currency", body: charge(goodItem, "").replacingOccurrences(of: "USD", with: "usd"),
                detail: "three upper-case letters"),
            InvalidCase(field: "request.storefront", body: charge(goodItem, #","storefront":"US""#)),
            InvalidCase(
                field: "request.storefront", body: charge(goodItem, #","storefront":"U5A""#),
                detail: "three upper-case letters"),
            InvalidCase(field: "request.items", body: subscription("[]")),
            InvalidCase(field: "request.items[0].offer.periodCount", body: subscription(offerItem("13"))),
            InvalidCase(field: "request.items[0].offer.periodCount", body: subscription(offerItem("0"))),
            InvalidCase(
                field: "request.descriptors.displayName",
                body: subscription("[" + goodItem + "]").replacingOccurrences(
                    of: #""displayName":"n""#, with: #""displayName":"\#(String(repeating: "n", count: 31))""#)),
            InvalidCase(field: "request.retainBillingCycle", body: modify("")),
            InvalidCase(field: "request.removeItems", body: modify(#","retainBillingCycle":true,"removeItems":[]"#)),
            InvalidCase(
                field: "request.changeItems[0].reason",
                body: modify(
                    #","retainBillingCycle":true,"changeItems":[{"SKU":"a","currentSKU":"b","description":"d","#
                        + #""displayName":"n","price":1,"effective":"IMMEDIATELY","reason":"SIDEGRADE"}]"#)),
            InvalidCase(
                field: "request.periodChange.period",
                body: modify(#","retainBillingCycle":true,"periodChange":{"effective":"IMMEDIATELY","period":"P2W"}"#)),
            // A UUID that is not version 4: the schema takes any UUID, the signing library refuses it.
            InvalidCase(
                field: "nonce",
                body: String(charge(goodItem, "").dropLast()) + #","nonce":"9f2d3c1e-6b1f-1a9e-8c8e-2a4f5d6b7c8d"}"#,
                detail: "version 4"),
        ]
    }()

    @Test("an invalid body is a 422 invalid-field problem naming the field", arguments: invalidCases)
    func invalidField(_ invalidCase: InvalidCase) async throws {
        let response = try await route.expectInvalidField(invalidCase.body, field: invalidCase.field)
        let detail = try #require(response.string("detail"))
        #expect(detail.contains(invalidCase.field), "\(detail)")
        if let words = invalidCase.detail { #expect(detail.contains(words), "\(detail)") }
    }

    @Test("values at the limits pass the schema and the library")
    func limits() async throws {
        let description = String(repeating: "é", count: 45)
        let displayName = String(repeating: "\u{1F600}", count: 15)
        let sku = String(repeating: "s", count: 128)
        let request = [
            #"{"operation":"CREATE_SUBSCRIPTION","requestInfo":{"requestReferenceId":\#(Self.uuid)},"#,
            #""currency":"USD","taxCode":"T","#,
            #""descriptors":{"description":"\#(description)","displayName":"\#(displayName)"},"#,
            #""items":[{"SKU":"\#(sku)","description":"d","displayName":"n","price":\#(Int64.max),"#,
            #""offer":{"period":"P9M","periodCount":12,"price":0,"reason":"RETENTION"}},"#,
            #"{"SKU":"s2","description":"d","displayName":"n","price":0,"#,
            #""offer":{"period":"P3D","periodCount":1,"price":\#(Int64.max),"reason":"ACQUISITION"}}],"#,
            #""period":"P1Y"}"#,
        ].joined()
        let response = try await route.post(Self.body(request))
        #expect(response.status == 200, "\(response.text)")
    }

    /// A `CREATE_SUBSCRIPTION` request with `items` items and the given tax code and consistency token.
    private static func subscription(items: Int, taxCode: String = "C003-00-2", consistencyToken: String = "ct")
        -> String
    {
        let item = #"{"SKU":"s","description":"d","displayName":"n","price":1}"#
        return #"{"operation":"CREATE_SUBSCRIPTION","requestInfo":{"requestReferenceId":\#(uuid),"#
            + #""consistencyToken":"\#(consistencyToken)"},"currency":"USD","taxCode":"\#(taxCode)","#
            + #""descriptors":{"description":"d","displayName":"n"},"items":["#
            + Array(repeating: item, count: items).joined(separator: ",") + #"],"period":"P1M"}"#
    }

    @Test("items, taxCode and consistencyToken are bounded, on the path and in a batch alike")
    func bounds() async throws {
        let atTheBounds = Self.subscription(
            items: AdvancedCommerce.itemsMaximum, taxCode: String(repeating: "T", count: 64),
            consistencyToken: String(repeating: "c", count: 512))
        #expect(try await route.post(Self.body(atTheBounds)).status == 200)
        let over: [(String, String)] = [
            (Self.subscription(items: AdvancedCommerce.itemsMaximum + 1), "request.items"),
            (Self.subscription(items: 1, taxCode: String(repeating: "T", count: 65)), "request.taxCode"),
            (
                Self.subscription(items: 1, consistencyToken: String(repeating: "c", count: 513)),
                "request.requestInfo.consistencyToken"
            ),
        ]
        for (request, field) in over {
            try await route.expectInvalidField(Self.body(request), field: field)
            // A batch item is checked by the same schema and library: that item is refused.
            let batch = SignBatchTests.batch([SignBatchTests.item("advanced-commerce", Self.body(request))])
            let results = try SignBatchTests.results(try await SignBatchTests.post(batch))
            #expect(results.first?["status"] == .integer(422), "\(field)")
            #expect(results.first?["problem"]?["field"] == .string(field), "\(field)")
        }
    }

    @Test("an unknown bundle ID is a 404 unknown-app problem")
    func unknownApp() async throws {
        try await route.expectUnknownApp(
            #"{"bundleId":"com.example.unknown","request":"# + Self.signedCases[0].request + "}")
    }

    @Test("a key without the advanced-commerce scope is refused with 403, no key with 401")
    func authorization() async throws {
        try await route.expectScopeRequired("advanced-commerce", json: Self.body(Self.signedCases[0].request))
    }

    @Test("the request component's example and each operation's example pass their schemas and are signed")
    func examples() async throws {
        let operation = try #require(OfferService.operations.first { $0.id == "signAdvancedCommerceRequest" })
        #expect(operation.path == Self.path)
        #expect(operation.responseSchema.componentName == "SignedJWS")
        let schema = try #require(operation.requestSchema)
        #expect(schema.componentName == "AdvancedCommerceRequest")
        let example = try #require(schema.example)
        try SchemaValidator().validate(example, against: schema)

        guard case .object(let properties, _) = Self.unwrapped(schema).kind,
            let requestSchema = properties.first(where: { $0.name == "request" })?.schema,
            case .oneOf(let choices, let discriminator) = Self.unwrapped(requestSchema).kind
        else {
            Issue.record("the request member is not a oneOf")
            return
        }
        #expect(requestSchema.componentName == "AdvancedCommerceInAppRequest")
        #expect(discriminator == "operation")
        var bodies = [example]
        var operations: [String] = []
        for choice in choices {
            let choiceExample = try #require(choice.example, "\(choice.componentName ?? "a choice") has no example")
            try SchemaValidator().validate(choiceExample, against: choice)
            if case .string(let name) = choiceExample["operation"] ?? .null { operations.append(name) }
            bodies.append(.object([("bundleId", .string(ServiceFixtures.app)), ("request", choiceExample)]))
        }
        #expect(operations.sorted() == AdvancedCommerce.Operation.allCases.map(\.rawValue).sorted())

        guard case .string(let bundleId)? = example["bundleId"] else {
            Issue.record("the example has no bundleId")
            return
        }
        let service = try ServiceFixtures.service { $0.apps[bundleId] = $0.apps[ServiceFixtures.app] }
        try await ServiceFixtures.application(service).test(.router) { [bodies] client in
            for body in bodies {
                let response = try await client.send(
                    .post, Self.path, json: body.text(), key: ServiceFixtures.admin.secret)
                #expect(response.status == 200, "\(body["request"]?["operation"]?.text() ?? ""): \(response.text)")
            }
        }
    }

    /// The schema behind a named component.
    private static func unwrapped(_ schema: JSONSchema) -> JSONSchema {
        if case .component(_, let inner) = schema.kind { return unwrapped(inner) }
        return schema
    }

    private static let uuid = #""0e4f4b8a-1f43-4d1e-9a55-5d8c2b7e6f10""#

    /// The body for `request`, for the demo app.
    private static func body(_ request: String) -> String {
        #"{"bundleId":"com.example.offerkit.demo","request":"# + request + "}"
    }
}
