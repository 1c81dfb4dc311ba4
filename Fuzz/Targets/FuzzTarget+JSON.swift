import OfferJSON
import OfferSigning

extension FuzzTarget {
    /// Parses; a value that parses is written back (strings escaped by `JSONWriter`, the escaping
    /// signing uses) and must parse to the same value.
    static func fuzzJSON(_ input: [UInt8]) {
        guard let value = try? JSONValue.parse(input) else { return }
        _ = value.shortDescription
        _ = value.int64
        var written: [UInt8] = []
        write(value, to: &written)
        let reparsed: JSONValue
        do {
            reparsed = try JSONValue.parse(written)
        } catch {
            fatalError("fuzz invariant broken: the written form does not parse (\(error.message))")
        }
        check(reparsed == value, "the written form parses to a different value")
    }

    /// Compact JSON for `value`, members in their order.
    static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendQuoted(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let text): JSONWriter.appendQuoted(text, to: &out)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }
}
