import Foundation
import OfferJSON
import OfferSigning
import Testing
import Yams

@testable import OfferService

/// The OpenAPI document's YAML (written by Yams) loads to exactly the JSON document, with tricky
/// keys and values too.
@Suite("OpenAPI YAML")
struct OpenAPIYAMLTests {
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

    @Test("Yams reads the tricky value back to exactly the JSON: order, types, escapes")
    func yamsRoundTrip() throws {
        let text = OpenAPIYAML.text(of: Self.tricky)
        let node = try #require(try Yams.compose(yaml: text))
        #expect(try Self.json(node) == Self.tricky.numbersAsDoubles, "\(text)")
    }

    @Test("the whole document reads back (Yams) to the JSON document")
    func documentRoundTrip() throws {
        let node = try #require(try Yams.compose(yaml: OpenAPIDocument.yamlText()))
        #expect(try Self.json(node) == OpenAPIDocument.document().numbersAsDoubles)
    }

    @Test("block style, with empty containers as {} and [], and scalars on one line")
    func shape() {
        let text = OpenAPIYAML.text(
            of: .object([("a", .object([])), ("b", .array([])), ("list", .array([.integer(1), .string("s")]))]))
        #expect(text == "a: {}\nb: []\nlist:\n- 1\n- \"s\"\n")
        #expect(OpenAPIYAML.text(of: .object([])) == "{}\n")
        #expect(OpenAPIYAML.text(of: .array([])) == "[]\n")
        #expect(OpenAPIYAML.number("1e5") == "1.0e+5")
        #expect(OpenAPIYAML.number("-2.5E-3") == "-2.5e-3")
        #expect(OpenAPIYAML.number("42") == "42")
    }

    @Test("strings YAML would read as something else stay strings, as values and as keys")
    func quoting() throws {
        for word in ["yes", "No", "true", "null", "~", "123", "0x1F", "1.5", "- item", "a: b", "#x", ""] {
            let value = JSONValue.object([(word, .string(word))])
            let node = try #require(try Yams.compose(yaml: OpenAPIYAML.text(of: value)))
            #expect(try Self.json(node) == value, "\(word)")
        }
    }

    @Test(
        "PyYAML loads tricky values to exactly the JSON",
        .enabled(OpenAPIPython.reason) { await OpenAPIPython.shouldRun })
    func pyYAMLRoundTrip() async throws {
        let yaml = OpenAPIYAML.text(of: Self.tricky)
        let result = try await OpenAPIPython.yamlLoadsAsJSON(yaml: yaml, json: Self.tricky.text())
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)\n\(yaml)")
    }

    struct UnexpectedNode: Error {
        var description: String
        init(node: Node) { description = String(describing: node) }
    }

    /// A YAML node as JSON, numbers as their `Double` value (YAML spells `1e5` as `1.0e+5`).
    static func json(_ node: Node) throws -> JSONValue {
        switch node {
        case .mapping(let mapping):
            return .object(
                try mapping.map { pair in
                    guard case .string(let key) = try json(pair.key) else { throw UnexpectedNode(node: pair.key) }
                    return (key, try json(pair.value))
                })
        case .sequence(let sequence):
            return .array(try sequence.map(json))
        case .scalar(let scalar):
            switch Resolver.default.resolveTag(of: node) {
            case .null: return .null
            case .bool: return .bool(["true", "True", "TRUE"].contains(scalar.string))
            case .int, .float: return .number(String(try #require(Double(scalar.string))))
            case .str: return .string(scalar.string)
            default: throw UnexpectedNode(node: node)
            }
        case .alias:
            throw UnexpectedNode(node: node)
        }
    }
}

extension JSONValue {
    /// The value with every number written as its `Double`, to compare with YAML read back.
    fileprivate var numbersAsDoubles: JSONValue {
        switch self {
        case .object(let members): .object(members.map { ($0.key, $0.value.numbersAsDoubles) })
        case .array(let elements): .array(elements.map(\.numbersAsDoubles))
        case .number(let text): .number(Double(text).map { String($0) } ?? text)
        case .string, .bool, .null: self
        }
    }
}
