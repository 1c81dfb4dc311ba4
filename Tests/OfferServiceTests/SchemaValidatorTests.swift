import Foundation
import OfferCodes
import OfferJSON
import OfferSigning
import Testing

@testable import OfferService

@Suite("SchemaValidator and StringRules.Format")
struct SchemaValidatorTests {
    // MARK: Formats

    /// Strings for plainText, and whether they are plain text.
    static let plainTexts: [(String, Bool)] = [
        ("com.example.monthly", true), ("WINBACK50", true), ("with space", true), ("ünïcödé", true),
        ("emoji 🎉", true), ("\u{00A0}nbsp", true), ("\u{2062}", true), ("\u{2064}", true), ("\u{200B}zwsp", true),
        ("e\u{0301}", true), ("\u{FFFD}", true), ("😀\u{1F3FD}", true), ("Ā", true), ("\u{2023}", true),
        ("\u{20A3}", true),
        ("a\u{2063}b", false), ("\u{2063}", false), ("tab\t", false), ("new\nline", false), ("cr\r\n", false),
        ("nul\u{0000}", false), ("\u{001F}", false), ("del\u{007F}", false), ("\u{0080}", false),
        ("\u{0085}next", false),
        ("c1\u{009F}", false), ("\u{001B}[31m", false), ("Â\u{0080}", false),
    ]

    @Test("plainText: no control characters (Cc) and no U+2063", arguments: plainTexts)
    func plainText(text: String, matches: Bool) {
        #expect(StringRules.Format.plainText.matches(text) == matches)
    }

    @Test("plainText agrees with what the signing library refuses", arguments: plainTexts)
    func plainTextAgreesWithSigner(text: String, matches: Bool) throws {
        let key = try SigningKey(contentsOfFile: ServiceFixtures.keyFile, keyId: ServiceFixtures.keyId)
        let signer = try OfferSigner(key: key, issuerId: ServiceFixtures.issuerId, bundleId: ServiceFixtures.app)
        let refused: Bool
        do {
            _ = try signer.sign(PromotionalOfferRequest(productId: text, offerIdentifier: "offer"))
            refused = false
        } catch let error as RequestValidationError {
            guard case .invalidFormat(field: "productId", _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            refused = true
        }
        #expect(StringRules.Format.plainText.matches(text) == !refused)
    }

    static let uuids: [(String, Bool)] = [
        ("98802e6e-bab8-4f06-8c88-a2582cda3c9c", true), ("98802E6E-BAB8-4F06-8C88-A2582CDA3C9C", true),
        ("00000000-0000-0000-0000-000000000000", true), ("98802e6e-bab8-4f06-8c88-a2582cda3c9", false),
        ("98802e6e-bab8-4f06-8c88-a2582cda3c9cc", false), ("98802e6ebab84f068c88a2582cda3c9c", false),
        ("98802e6e-bab8-4f06-8c88_a2582cda3c9c", false), ("g8802e6e-bab8-4f06-8c88-a2582cda3c9c", false),
        ("{98802e6e-bab8-4f06-8c88-a2582cda3c9c}", false), (" 98802e6e-bab8-4f06-8c88-a2582cda3c9", false),
        ("", false), ("98802e6e-bab8-4f06-8c88-a2582cda3c９c", false),
    ]

    @Test("uuid: 8-4-4-4-12 hexadecimal digits, as Foundation and the signing library read them", arguments: uuids)
    func uuid(text: String, matches: Bool) throws {
        #expect(StringRules.Format.uuid.matches(text) == matches)
        // Foundation, which the nonce is parsed with after this check, reads every UUID it passes.
        if matches { #expect(UUID(uuidString: text) != nil) }
        let key = try SigningKey(contentsOfFile: ServiceFixtures.keyFile, keyId: ServiceFixtures.keyId)
        let accepted = (try? OfferSigner(key: key, issuerId: text, bundleId: ServiceFixtures.app)) != nil
        #expect(accepted == matches)
    }

    static let bundleIds: [(String, Bool)] = [
        ("com.example.app", true), ("com.example.my-app", true), ("App", true), ("a.b.c.d.e", true),
        ("com.Example.APP9", true), ("123.456", true), ("com..app", false), (".com.app", false), ("com.app.", false),
        ("", false), ("com.example.app!", false), ("com example", false), ("com.exämple.app", false),
        ("com_example", false), ("com/example", false), ("*", false),
    ]

    @Test(
        "bundleID: letters, digits, - and ., no empty component, as the signing library reads it",
        arguments: bundleIds)
    func bundleId(text: String, matches: Bool) throws {
        #expect(StringRules.Format.bundleId.matches(text) == matches)
        let key = try SigningKey(contentsOfFile: ServiceFixtures.keyFile, keyId: ServiceFixtures.keyId)
        let accepted = (try? OfferSigner(key: key, issuerId: ServiceFixtures.issuerId, bundleId: text)) != nil
        #expect(accepted == matches)
    }

    static let uuidV4s: [(String, Bool)] = [
        ("9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d", true), ("9F2D3C1E-6B1F-4A9E-BC8E-2A4F5D6B7C8D", true),
        ("9f2d3c1e-6b1f-1a9e-8c8e-2a4f5d6b7c8d", false), ("9f2d3c1e-6b1f-4a9e-cc8e-2a4f5d6b7c8d", false),
        ("9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8", false), ("not-a-uuid", false),
    ]

    @Test("uuidV4: a version 4 UUID, exactly the nonces the signing library takes", arguments: uuidV4s)
    func uuidV4(text: String, matches: Bool) throws {
        #expect(StringRules.Format.uuidV4.matches(text) == matches)
        let key = try SigningKey(contentsOfFile: ServiceFixtures.keyFile, keyId: ServiceFixtures.keyId)
        let signer = try OfferSigner(key: key, issuerId: ServiceFixtures.issuerId, bundleId: ServiceFixtures.app)
        let nonce = UUID(uuidString: text)
        let signed =
            nonce.flatMap { try? signer.sign(PromotionalOfferRequest(productId: "p", offerIdentifier: "o"), nonce: $0) }
        #expect((signed != nil) == matches)
    }

    static let alpha3s: [(String, Bool)] = [
        ("USD", true), ("USA", true), ("usd", false), ("US", false), ("USDT", false), ("U5A", false), ("ÜSA", false),
    ]

    @Test("alpha3: three upper-case letters A–Z", arguments: alpha3s)
    func alpha3(text: String, matches: Bool) {
        #expect(StringRules.Format.alpha3.matches(text) == matches)
    }

    static let dates: [(String, Bool)] = [
        ("2026-11-21", true), ("2024-02-29", true), ("0001-01-01", true), ("9999-12-31", true), ("2025-02-29", false),
        ("2026-13-01", false), ("2026-00-10", false), ("2026-04-31", false), ("2026-11-00", false),
        ("2026-1-21", false), ("26-11-21", false), ("2026/11/21", false), ("2026-11-21T00:00:00Z", false),
        ("", false), ("abcd-ef-gh", false), ("0000-01-01", false), ("2026-11-2１", false),
    ]

    @Test("date: a real calendar day YYYY-MM-DD, as the offer-code library reads it", arguments: dates)
    func date(text: String, matches: Bool) {
        #expect(StringRules.Format.date.matches(text) == matches)
        #expect((CalendarDate(text) != nil) == matches)
    }

    static let recipientIds: [(String, Bool)] = [
        ("user-8412", true), ("Wang, Fang", true), ("é", true), ("invisible\u{2063}separator", true),
        (String(repeating: "r", count: 256), true), (String(repeating: "é", count: 128), true), ("", false),
        ("line\nbreak", false), ("tab\there", false), ("nul\u{0}", false), ("del\u{7F}", false), ("c1\u{85}", false),
        (String(repeating: "r", count: 257), false), (String(repeating: "é", count: 129), false),
    ]

    @Test("recipientId: RecipientId's rule (1-256 UTF-8 bytes, no control characters)", arguments: recipientIds)
    func recipientId(text: String, matches: Bool) {
        #expect(StringRules.Format.recipientId.matches(text) == matches)
        #expect((RecipientId.problem(text) == nil) == matches)
    }

    @Test("each format's pattern (written to the document) agrees with its native check")
    func patternsAgree() throws {
        let tables: [StringRules.Format: [(String, Bool)]] = [
            .plainText: Self.plainTexts, .uuid: Self.uuids, .bundleId: Self.bundleIds, .date: Self.dates,
            .uuidV4: Self.uuidV4s, .alpha3: Self.alpha3s, .recipientId: Self.recipientIds,
            .campaignName: CampaignNameTests.names,
        ]
        #expect(Set(tables.keys) == Set(StringRules.Format.allCases))
        for (format, table) in tables {
            let regex = try NSRegularExpression(pattern: format.pattern)
            for (text, _) in table {
                // ECMA-262 `$` (JSON Schema's dialect) is the end of input; ICU's also matches before a
                // final line break, so the match must cover the whole string.
                let range = NSRange(text.startIndex..., in: text)
                let patternMatches = regex.firstMatch(in: text, range: range)?.range == range
                if format == .date {
                    // The pattern is the shape; `format: date` adds the calendar, as the native check does.
                    if format.matches(text) { #expect(patternMatches, "\(format) \(text)") }
                } else if format == .recipientId {
                    // The pattern is the characters; the byte bound (256 UTF-8 bytes) is native only, and the
                    // schemas that use the format bound the length to 256 characters as well.
                    let withinBytes = text.utf8.count <= RecipientId.maximumBytes
                    #expect(
                        (patternMatches && withinBytes) == format.matches(text), "\(format) \(text.debugDescription)")
                } else {
                    #expect(patternMatches == format.matches(text), "\(format) \(text.debugDescription)")
                }
            }
        }
        #expect(StringRules.Format.uuid.standardFormat == "uuid" && StringRules.Format.date.standardFormat == "date")
        #expect(StringRules.Format.plainText.standardFormat == nil && StringRules.Format.bundleId.standardFormat == nil)
    }

    // MARK: Validator

    /// The violation for `json` against `schema`, or `nil` when it is valid.
    func violation(_ json: String, _ schema: JSONSchema) throws -> SchemaViolation? {
        let value = try JSONValue.parse(Array(json.utf8))
        do {
            try SchemaValidator().validate(value, against: schema)
            return nil
        } catch {
            return error
        }
    }

    @Test("messages say what was found, for every kind of schema and value")
    func messagesSayWhatWasFound() throws {
        func message(_ json: String, _ schema: JSONSchema) throws -> String? {
            try violation(json, .object([.init("f", schema)]))?.errorDescription
        }
        let text = JSONSchema.string(.identifier())
        // A value of the wrong type: the type expected, and the value found (strings are not echoed).
        #expect(
            try message(#"{"f":2000000123456789}"#, text) == "f: expected a string, found the number 2000000123456789")
        #expect(try message(#"{"f":true}"#, text) == "f: expected a string, found the boolean true")
        #expect(try message(#"{"f":null}"#, text) == "f: expected a string, found null")
        #expect(try message(#"{"f":{}}"#, text) == "f: expected a string, found an object")
        #expect(try message(#"{"f":[1,2]}"#, text) == "f: expected a string, found an array of 2 elements")
        #expect(
            try message(#"{"f":"abc"}"#, .boolean())
                == "f: expected a boolean (true or false), found a string of 3 characters")
        #expect(try message(#"{"f":false}"#, .integer()) == "f: expected an integer, found the boolean false")
        #expect(try message(#"{"f":7}"#, .object([])) == "f: expected an object, found the number 7")
        #expect(try message(#"{"f":"x"}"#, .array(of: text)) == "f: expected an array, found a string of 1 character")
        // Bounds: the number and the bound it passes.
        let lifetime = JSONSchema.integer(minimum: 1, maximum: 3600)
        #expect(try message(#"{"f":3601}"#, lifetime) == "f: 3601 is above 3600")
        #expect(try message(#"{"f":0}"#, lifetime) == "f: 0 is below 1")
        #expect(
            try message(#"{"f":36.5}"#, lifetime)
                == "f: expected an integer from 1 to 3600, found a fractional number 36.5")
        // Enumerations, patterns and lengths: what is allowed, and what was found.
        #expect(
            try message(#"{"f":"P5D"}"#, .enumeration(["P1W", "P1M"]))
                == #"f: expected one of P1W, P1M (in any case), found "P5D""#)
        #expect(
            try message(#"{"f":"12"}"#, .string(StringRules(format: .uuid)))
                == "f: expected \(StringRules.Format.uuid.expected), found a string of 2 characters")
        #expect(
            try message(#"{"f":"abcd"}"#, .string(StringRules(maxLength: 3)))
                == "f: expected at most 3 characters, found a string of 4 characters")
        #expect(
            try message(#"{"f":[]}"#, .array(of: text, minItems: 1))
                == "f: expected an array of at least 1 element, found an array of 0 elements")
    }

    @Test("scalars: types, integer bounds and 64-bit range")
    func scalars() throws {
        let integer = JSONSchema.integer(minimum: 1, maximum: 10)
        #expect(try violation("5", integer) == nil)
        #expect(try violation("1", integer) == nil)
        #expect(try violation("10", integer) == nil)
        #expect(
            try violation("0", integer)
                == SchemaViolation(
                    field: "(body)", expected: "an integer from 1 to 10", found: "the number 0",
                    reason: "0 is below 1"))
        #expect(try violation("11", integer)?.expected == "an integer from 1 to 10")
        // JSON Schema counts a whole number written with a fraction or exponent as an integer.
        #expect(try violation("5.0", integer) == nil)
        #expect(try violation("5e0", integer) == nil)
        #expect(try violation("500e-2", integer) == nil)
        #expect(try violation("5.5", integer)?.found == "a fractional number 5.5")
        #expect(try violation("1e-1", integer)?.found == "a fractional number 1e-1")
        #expect(try violation("\"5\"", integer)?.found == "a string of 1 character")
        #expect(
            try violation("99999999999999999999", integer)?.found
                == "a whole number 99999999999999999999 outside the 64-bit range")
        #expect(try violation("-1", JSONSchema.integer(minimum: 0))?.expected == "an integer ≥ 0")
        #expect(try violation("1", JSONSchema.integer(maximum: 0))?.expected == "an integer ≤ 0")
        #expect(try violation("-9223372036854775808", JSONSchema.integer()) == nil)
        #expect(try violation("true", JSONSchema.boolean()) == nil)
        #expect(try violation("null", JSONSchema.boolean())?.found == "null")
        #expect(try violation("1", JSONSchema.boolean())?.expected == "a boolean (true or false)")
        #expect(try violation("[1, {\"a\": null}]", JSONSchema(.any)) == nil)
    }

    @Test("strings: length in Unicode scalars, allowed values, formats")
    func strings() throws {
        // A string's size is counted as the length rules count it: Unicode scalars (é here is e + U+0301).
        let decomposed = String(repeating: "e\u{301}", count: 40)
        #expect(
            try violation("\"\(decomposed)\"", JSONSchema.string(StringRules(maxLength: 64)))?.found
                == "a string of 80 characters")
        let bounded = JSONSchema.string(StringRules(minLength: 2, maxLength: 3))
        #expect(try violation(#""ab""#, bounded) == nil)
        #expect(try violation(#""🎉🎉🎉""#, bounded) == nil)
        #expect(try violation(#""e\u0301e""#, bounded) == nil)
        #expect(try violation(#""a""#, bounded)?.expected == "at least 2 characters")
        #expect(try violation(#""abcd""#, bounded)?.expected == "at most 3 characters")
        #expect(try violation(#""""#, JSONSchema.string(.identifier()))?.expected == "a non-empty string")
        #expect(
            try violation(#""a\u2063b""#, JSONSchema.string(.identifier()))?.expected
                == StringRules.Format.plainText.expected)
        let choice = JSONSchema.enumeration(["a", "b"])
        #expect(try violation(#""b""#, choice) == nil)
        #expect(try violation(#""B""#, choice) == nil)
        #expect(try violation(#""c""#, choice)?.expected == "one of a, b (in any case)")
        #expect(try violation("1", choice)?.expected == "one of a, b (in any case)")
        #expect(
            try violation(#""x""#, JSONSchema.string(StringRules(format: .uuid)))?.expected
                == StringRules.Format.uuid.expected)
        // The violation never echoes the value of a free-form field; an enumeration's value is shown
        // bounded (32 characters, control characters escaped), so a long secret never is.
        #expect(
            try violation(#""secret-value-123""#, JSONSchema.string(StringRules(format: .uuid)))?.found
                == "a string of 16 characters")
        #expect(try violation(#""value-123\n""#, choice)?.found == #""value-123\u{a}""#)
        let secret = String(repeating: "s3cr3t", count: 8)
        #expect(try violation("\"\(secret)\"", choice)?.found == "a string of 48 characters (not shown)")
    }

    static let order = JSONSchema.object([
        .init("id", .string(.identifier())),
        .init(
            "lines",
            .array(
                of: .object([
                    .init("sku", .string(.identifier())), .init("count", .integer(minimum: 1), required: false),
                ]),
                minItems: 1, maxItems: 2)),
        .init("note", .string(), required: false),
    ]).named("Order")

    @Test(
        "objects and arrays: paths name the field at fault",
        arguments: [
            (#"{"id":"1","lines":[{"sku":"a"}]}"#, nil),
            (#"{"id":"1","lines":[{"sku":"a"},{"sku":"b","count":2}],"note":""}"#, nil),
            (#"{"lines":[{"sku":"a"}]}"#, "id"),
            (#"{"id":"1"}"#, "lines"),
            (#"{"id":"1","lines":[]}"#, "lines"),
            (#"{"id":"1","lines":[{"sku":"a"},{"sku":"b"},{"sku":"c"}]}"#, "lines"),
            (#"{"id":"1","lines":[{"sku":"a"},{"sku":""}]}"#, "lines[1].sku"),
            (#"{"id":"1","lines":[{"sku":"a"},{"count":1}]}"#, "lines[1].sku"),
            (#"{"id":"1","lines":[{"sku":"a","count":0}]}"#, "lines[0].count"),
            (#"{"id":"1","lines":[{"sku":"a","extra":0}]}"#, "lines[0].extra"),
            (#"{"id":"1","lines":{"sku":"a"}}"#, "lines"),
            (#"{"id":"1","lines":["a"]}"#, "lines[0]"),
            (#"{"id":"1","lines":[{"sku":"a"}],"Note":"x"}"#, "Note"),
            (#"[]"#, "(body)"),
            (#""order""#, "(body)"),
        ] as [(String, String?)])
    func paths(json: String, field: String?) throws {
        #expect(try violation(json, Self.order)?.field == field)
    }

    @Test("a missing member's message says what it must be; an unknown one lists the known members")
    func messages() throws {
        let missing = try #require(try violation(#"{"lines":[{"sku":"a"}]}"#, Self.order))
        #expect(missing.expected == StringRules.Format.plainText.expected)
        #expect(missing.found == "nothing (it is required)")
        let unknown = try #require(try violation(#"{"id":"1","lines":[{"sku":"a"}],"x":1}"#, Self.order))
        #expect(unknown.expected == "no such member (known: id, lines, note)")
        #expect(unknown.errorDescription == "x: expected \(unknown.expected), found an unknown member")
    }

    @Test("a duplicate member is refused by the validator too (for values not made by the parser)")
    func duplicateMember() {
        let value = JSONValue.object([("id", .string("1")), ("id", .string("2"))])
        #expect(throws: SchemaViolation(field: "id", expected: "one member of this name", found: "two")) {
            try SchemaValidator().validate(value, against: Self.order)
        }
    }

    @Test("additionalProperties: extra members must match its schema")
    func additionalProperties() throws {
        let map = JSONSchema(.object([.init("fixed", .boolean())], additionalProperties: .integer(minimum: 0)))
        #expect(try violation(#"{"fixed":true,"a":1,"b":2}"#, map) == nil)
        #expect(try violation(#"{"fixed":true,"a":-1}"#, map)?.field == "a")
        #expect(try violation(#"{"a":1}"#, map)?.field == "fixed")
    }

    static let tagged = JSONSchema(
        .oneOf(
            [
                .object([.init("kind", .enumeration(["circle"])), .init("radius", .integer(minimum: 0))]),
                .object([.init("kind", .enumeration(["square"])), .init("side", .integer(minimum: 0))]),
            ], discriminator: "kind"))

    @Test(
        "oneOf: the discriminator picks the schema",
        arguments: [
            (#"{"kind":"circle","radius":1}"#, nil, nil),
            (#"{"kind":"square","side":1}"#, nil, nil),
            (#"{"kind":"square","radius":1}"#, "radius", nil),
            (#"{"kind":"square"}"#, "side", nil),
            (#"{"radius":1}"#, "kind", "one of circle, square"),
            (#"{"kind":"triangle"}"#, "kind", "one of circle, square"),
            (#"{"kind":1}"#, "kind", "one of circle, square"),
            (#"[]"#, "(body)", "an object"),
        ] as [(String, String?, String?)])
    func oneOf(json: String, field: String?, expected: String?) throws {
        let found = try violation(json, Self.tagged)
        #expect(found?.field == field)
        if let expected { #expect(found?.expected == expected) }
    }

    static let stringOrInteger = JSONSchema.object([
        .init(
            "id",
            JSONSchema(
                .anyOf([
                    .string(StringRules(maxLength: 3)), .integer(minimum: 0),
                    .string(StringRules(format: .uuid)),
                ])))
    ])

    @Test(
        "anyOf: the first choice that accepts the value decides; otherwise the first choice of its type says why",
        arguments: [
            (#"{"id":"abc"}"#, nil),
            (#"{"id":7}"#, nil),
            (#"{"id":7.0}"#, nil),
            (#"{"id":"9F2D3C1E-6B1F-4A9E-8C8E-2A4F5D6B7C8D"}"#, nil),
            (#"{"id":"abcd"}"#, "id: expected at most 3 characters, found a string of 4 characters"),
            (#"{"id":-1}"#, "id: -1 is below 0"),
            (
                #"{"id":true}"#,
                "id: expected a string or an integer ≥ 0 or a UUID (8-4-4-4-12 hexadecimal digits), found the boolean true"
            ),
            (
                #"{}"#,
                "id: expected a string or an integer ≥ 0 or a UUID (8-4-4-4-12 hexadecimal digits), found nothing (it is required)"
            ),
        ] as [(String, String?)])
    func anyOf(json: String, message: String?) throws {
        #expect(try violation(json, Self.stringOrInteger)?.errorDescription == message)
        if message == nil {
            // Integers come out in their plain form, as everywhere else.
            let checked = try SchemaValidator().validated(
                try JSONValue.parse(Array(json.utf8)), against: Self.stringOrInteger)
            if json.hasPrefix(#"{"id":7"#) { #expect(checked["id"] == .number("7")) }
        }
    }

    @Test("oneOf inside an object reports the nested path")
    func nestedOneOf() throws {
        let schema = JSONSchema.object([.init("shapes", .array(of: Self.tagged))])
        #expect(
            try violation(#"{"shapes":[{"kind":"circle","radius":1},{"kind":"x"}]}"#, schema)?.field == "shapes[1].kind"
        )
        #expect(try violation(#"{"shapes":[{"radius":1}]}"#, schema)?.field == "shapes[0].kind")
    }

    @Test("validated(_:against:) writes whole numbers as plain integers, everywhere in the body")
    func canonicalIntegers() throws {
        let schema = JSONSchema.object([
            .init("count", .integer()),
            .init("items", .array(of: .object([.init("price", .integer(minimum: 0))]))),
            .init("note", .string(), required: false),
        ])
        let value = try JSONValue.parse(
            Array(#"{"count":6.0,"items":[{"price":99e1},{"price":-0.0}],"note":"1.0"}"#.utf8))
        let checked = try SchemaValidator().validated(value, against: schema)
        #expect(checked.text(pretty: false) == #"{"count":6,"items":[{"price":990},{"price":0}],"note":"1.0"}"#)
    }

    @Test("member names that would make a path ambiguous are quoted in it")
    func quotedMemberNames() throws {
        let schema = JSONSchema.object([.init("a", .integer(), required: false)])
        #expect(try violation(#"{"":1}"#, schema)?.field == #"[""]"#)
        #expect(try violation(#"{"x.y":1}"#, schema)?.field == #"["x.y"]"#)
        let nested = JSONSchema.object([.init("a", JSONSchema(.object([], additionalProperties: .integer())))])
        #expect(try violation(#"{"a":{"b c":"x"}}"#, nested)?.field == #"a["b c"]"#)
    }
}
