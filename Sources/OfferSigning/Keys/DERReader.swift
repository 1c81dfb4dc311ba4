/// A minimal DER reader: just enough ASN.1 to tell what kind of key a user handed us,
/// so each wrong kind gets its own error before swift-crypto sees the bytes.
struct DERReader {
    struct Element {
        let tag: UInt8
        let content: ArraySlice<UInt8>

        var isSequence: Bool { tag == 0x30 }
        var isInteger: Bool { tag == 0x02 }
        var isObjectIdentifier: Bool { tag == 0x06 }

        /// The children of a constructed element.
        func children() throws(DERError) -> [Element] {
            var reader = DERReader(content)
            var result: [Element] = []
            while !reader.isAtEnd { result.append(try reader.next()) }
            return result
        }

        /// Small non-negative integers only (versions).
        var smallInteger: Int? {
            guard isInteger, content.count <= 4, !content.isEmpty else { return nil }
            return content.reduce(0) { $0 << 8 | Int($1) }
        }

        /// Dotted form of an OBJECT IDENTIFIER, e.g. `1.2.840.10045.3.1.7`.
        var objectIdentifier: String? {
            guard isObjectIdentifier, let first = content.first else { return nil }
            var parts = [String(Int(first) / 40), String(Int(first) % 40)]
            var value = 0
            for byte in content.dropFirst() {
                value = value << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 {
                    parts.append(String(value))
                    value = 0
                }
            }
            return parts.joined(separator: ".")
        }
    }

    enum DERError: Error {
        case truncated
        case malformed
    }

    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { bytes.isEmpty }

    mutating func next() throws(DERError) -> Element {
        guard let tag = bytes.popFirst() else { throw .truncated }
        guard tag & 0x1F != 0x1F else { throw .malformed }  // high tag numbers never occur in keys
        guard let first = bytes.popFirst() else { throw .truncated }
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let octets = Int(first & 0x7F)
            guard octets > 0, octets <= 4 else { throw .malformed }
            for _ in 0..<octets {
                guard let byte = bytes.popFirst() else { throw .truncated }
                length = length << 8 | Int(byte)
            }
        }
        guard bytes.count >= length else { throw .truncated }
        let content = bytes.prefix(length)
        bytes = bytes.dropFirst(length)
        return Element(tag: tag, content: content)
    }

    /// Reads exactly one element spanning all of `bytes`.
    static func single(_ bytes: [UInt8]) throws(DERError) -> Element {
        var reader = DERReader(bytes[...])
        let element = try reader.next()
        guard reader.isAtEnd else { throw .malformed }
        return element
    }
}
