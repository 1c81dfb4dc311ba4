extension JSONValue {
    /// Writes the value as JSON text, members in their stored order.
    ///
    /// - Parameter pretty: two-space indentation and one member per line when `true`; compact
    ///   otherwise. Strings are escaped exactly as ``JSONWriter`` escapes them.
    package func serialized(pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, pretty: pretty, depth: 0)
        return out
    }

    /// The serialized text as a `String` (for output and tests).
    package func text(pretty: Bool = false) -> String {
        String(decoding: serialized(pretty: pretty), as: UTF8.self)
    }

    private func write(to out: inout [UInt8], pretty: Bool, depth: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): JSONWriter.appendQuoted(text, to: &out)
        case .array(let items):
            writeContainer(items, open: "[", close: "]", to: &out, pretty: pretty, depth: depth) { item, out in
                item.write(to: &out, pretty: pretty, depth: depth + 1)
            }
        case .object(let members):
            writeContainer(members, open: "{", close: "}", to: &out, pretty: pretty, depth: depth) { member, out in
                JSONWriter.appendQuoted(member.key, to: &out)
                out.append(contentsOf: (pretty ? ": " : ":").utf8)
                member.value.write(to: &out, pretty: pretty, depth: depth + 1)
            }
        }
    }

    private func writeContainer<Element>(
        _ elements: [Element], open: Unicode.Scalar, close: Unicode.Scalar, to out: inout [UInt8], pretty: Bool,
        depth: Int, _ writeElement: (Element, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: open))
        guard !elements.isEmpty else {
            out.append(UInt8(ascii: close))
            return
        }
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if pretty { Self.newline(&out, depth: depth + 1) }
            writeElement(element, &out)
        }
        if pretty { Self.newline(&out, depth: depth) }
        out.append(UInt8(ascii: close))
    }

    private static func newline(_ out: inout [UInt8], depth: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// An integer value.
    package static func integer<I: BinaryInteger>(_ value: I) -> JSONValue { .number(String(value)) }
}
