import OfferService
import OfferSigning
import Testing

@Suite("YAML writer")
struct YAMLWriterTests {
    /// Keys YAML would read as something else, empty containers, nested lists, every kind of scalar.
    static let tricky: JSONValue = .object([
        ("plain", .string("text")), ("empty object", .object([])), ("emptyList", .array([])),
        ("200", .string("status")), ("true", .bool(true)), ("No", .bool(false)), ("null", .null),
        ("~", .integer(-1)), ("", .string("empty key")), ("-dash", .string("x")), ("/v1/{bundleId}", .integer(0)),
        ("a: b", .string("colon")), ("#comment", .string("hash")), ("$ref", .string("#/components/schemas/X")),
        ("1.5", .number("1.5")), ("exponents", .array([.number("1e5"), .number("-2.5E-3"), .number("6.02e+23")])),
        (
            "list",
            .array([
                .object([("k", .string("v")), ("m", .array([.integer(1), .array([.integer(2), .integer(3)])]))]),
                .array([]), .object([]), .string("s"), .null,
            ])
        ),
        (
            "strings",
            .array([
                .string(""), .string(" leading and trailing "), .string("quote \" backslash \\ slash /"),
                .string("line\nbreak\r\ttab\u{08}\u{0C}"), .string("nul \u{0} esc \u{1B} del \u{7F}"),
                .string("c1 \u{85} \u{9F} nbsp \u{A0}"), .string("separators \u{2028} \u{2029} bom \u{FEFF}"),
                .string("invisible separator \u{2063}, é, 😀, 中文"), .string("- not a list"), .string("key: value"),
                .string("yes"), .string("123"), .string("0x1F"), .string("@at `tick` %percent &anchor *alias !tag"),
                .string(#"^[^\u0000-\u001F\u007F-\u009F\u2063]*$"#), .string("\u{FFFE} \u{FFFF}"),
            ])
        ),
    ])

    @Test("block style: nested maps and lists, {} and [], quoted strings and keys")
    func shape() {
        let value = JSONValue.object([
            ("a", .object([])), ("b", .array([])), ("200", .string("x")), ("true", .integer(1)),
            (
                "list",
                .array([
                    .object([("k", .string("v")), ("m", .array([.integer(1), .array([.integer(2), .integer(3)])]))]),
                    .array([]), .string("s"),
                ])
            ),
            ("/v1/{id}", .null), ("$ref", .string("#/x")), ("application/problem+json", .bool(false)),
        ])
        let expected = """
            a: {}
            b: []
            "200": "x"
            "true": 1
            list:
              - k: "v"
                m:
                  - 1
                  - - 2
                    - 3
              - []
              - "s"
            "/v1/{id}": null
            $ref: "#/x"
            application/problem+json: false

            """
        #expect(YAMLWriter.text(of: value) == expected)
    }

    @Test("escapes what YAML does not take raw, keeps the rest")
    func escapes() {
        let text = YAMLWriter.text(
            of: .array([
                .string("a\"b\\c\nd\te"), .string("\u{0}\u{1B}\u{7F}\u{85}\u{9F}"), .string("\u{2028}\u{2029}\u{FEFF}"),
                .string("\u{2063}é😀"),
            ]))
        let expected = """
            - "a\\"b\\\\c\\nd\\te"
            - "\\u0000\\u001B\\u007F\\u0085\\u009F"
            - "\\u2028\\u2029\\uFEFF"
            - "\u{2063}é😀"

            """
        #expect(text == expected)
    }

    @Test("a scalar or empty document is one line")
    func scalars() {
        #expect(YAMLWriter.text(of: .object([])) == "{}\n")
        #expect(YAMLWriter.text(of: .array([])) == "[]\n")
        #expect(YAMLWriter.text(of: .string("x")) == "\"x\"\n")
        #expect(YAMLWriter.text(of: .number("1e5")) == "1.0e+5\n")
    }

    @Test("PyYAML loads tricky values to exactly the JSON", .enabled(if: OpenAPIPython.shouldRun, OpenAPIPython.reason))
    func pyYAMLRoundTrip() throws {
        let result = try OpenAPIPython.yamlLoadsAsJSON(yaml: YAMLWriter.text(of: Self.tricky), json: Self.tricky.text())
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)\n\(YAMLWriter.text(of: Self.tricky))")
    }
}
