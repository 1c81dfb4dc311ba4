import OfferJSON

/// A block of a PEM document (`-----BEGIN LABEL-----`, base64, `-----END LABEL-----`), read as
/// OpenSSL reads one: base64 lines of any width, LF or CRLF line ends, spaces around lines, RFC 1421
/// headers (`Proc-Type: 4,ENCRYPTED`) before the base64, text outside the blocks ignored.
///
/// The package's one PEM reader: private keys (``SigningKey``), root certificates
/// (OfferAppleVerification) and the service's TLS files (OfferService). swift-asn1's `PEMDocument`
/// wants base64 lines of exactly 64 characters and refuses a whole file otherwise, though OpenSSL
/// (and so every web server) reads other widths.
///
/// A BEGIN line is a line of its own whose label looks like an RFC 7468 label: printable ASCII
/// without `-`, at most ``maximumLabelLength`` characters. A key flattened to one line
/// (`echo $KEY > key.pem`, or `\n` written as two characters) has no BEGIN line, so none of its
/// base64 becomes a label; labels are the only text of a file that a ``Problem`` names.
package struct PEMBlock: Sendable, Equatable {
    /// The label, such as `CERTIFICATE` or `PRIVATE KEY`.
    package let label: String
    /// The RFC 1421 header lines before the base64 (an encrypted legacy key's `Proc-Type` and
    /// `DEK-Info`), as written; never shown in a message.
    package let headers: [String]
    /// The decoded base64: never empty.
    package let der: [UInt8]

    /// The longest label read; a longer one makes its line text, not a BEGIN line.
    package static let maximumLabelLength = 64

    /// Whether the block is a password-protected key: PKCS#8 `ENCRYPTED PRIVATE KEY`, or a legacy
    /// key with a `Proc-Type: 4,ENCRYPTED` header.
    package var isEncrypted: Bool {
        label == "ENCRYPTED PRIVATE KEY"
            || headers.contains { $0.hasPrefix("Proc-Type") && $0.contains("ENCRYPTED") }
    }

    /// Why a block cannot be read. Each names its block by its label, which was checked to be a
    /// short line of printable ASCII: no other text of the file is ever shown.
    package enum Problem: Error, Equatable, CustomStringConvertible {
        /// A BEGIN line with no END line after it: the text ends, or another BEGIN line comes first.
        case unterminated(label: String)
        /// A BEGIN line whose END line names another label (OpenSSL refuses the block).
        case mismatchedEnd(label: String)
        /// A block with nothing between its BEGIN and END lines.
        case empty(label: String)
        /// A block whose content is not base64.
        case notBase64(label: String)

        /// The label of the block's BEGIN line.
        package var label: String {
            switch self {
            case .unterminated(let label), .mismatchedEnd(let label), .empty(let label), .notBase64(let label): label
            }
        }

        /// What is wrong, for a message that names the file or field: such as
        /// `a BEGIN CERTIFICATE line without its END CERTIFICATE line`.
        package var description: String {
            switch self {
            case .unterminated(let label): "a BEGIN \(label) line without its END \(label) line"
            case .mismatchedEnd(let label): "a BEGIN \(label) line whose END line names another label"
            case .empty(let label): "an empty \(label) block"
            case .notBase64(let label): "a \(label) block whose content is not base64"
            }
        }
    }

    /// Every block of `text`, in order; none when it has no BEGIN line.
    /// - Throws: the ``Problem`` of the first block that cannot be read.
    package static func blocks(in text: String) throws(Problem) -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        for block in scan(text) { blocks.append(try block.get()) }
        return blocks
    }

    /// Every block of `text`, in order, each read or with its problem: for a reader that looks for
    /// one kind of block and lets the others be (a private key next to a broken certificate).
    package static func scan(_ text: String) -> [Result<PEMBlock, Problem>] {
        var results: [Result<PEMBlock, Problem>] = []
        var open: (label: String, headers: [String], base64: [UInt8])?
        var utf8 = Array(text.utf8)
        utf8.append(0x0A)
        var lineStart = 0
        for index in utf8.indices where utf8[index] == 0x0A || utf8[index] == 0x0D {
            let line = trimmed(utf8[lineStart..<index])
            lineStart = index + 1
            if let label = label(of: line, between: beginPrefix) {
                if let current = open { results.append(.failure(.unterminated(label: current.label))) }
                open = (label, [], [])
            } else if open != nil {
                // No copy of the open block is held while it grows: appending (through optional
                // chaining) stays in place, not a copy of everything read so far per line.
                if line.starts(with: endPrefix), line.suffix(dashes.count).elementsEqual(dashes), let block = open {
                    open = nil
                    let matches = line.elementsEqual(endPrefix + Array(block.label.utf8) + dashes)
                    results.append(matches ? read(block) : .failure(.mismatchedEnd(label: block.label)))
                } else if open?.base64.isEmpty == true, line.contains(UInt8(ascii: ":")) {
                    open?.headers.append(String(decoding: line, as: UTF8.self))
                } else {
                    open?.base64.append(contentsOf: line.lazy.filter { $0 != 0x20 && $0 != 0x09 })
                }
            }
        }
        if let current = open { results.append(.failure(.unterminated(label: current.label))) }
        return results
    }

    private static let beginPrefix = Array("-----BEGIN ".utf8)
    private static let endPrefix = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)

    private static func read(_ block: (label: String, headers: [String], base64: [UInt8])) -> Result<PEMBlock, Problem>
    {
        guard !block.base64.isEmpty else { return .failure(.empty(label: block.label)) }
        guard let der = Base64.decode(block.base64, urlSafe: false), !der.isEmpty else {
            return .failure(.notBase64(label: block.label))
        }
        return .success(PEMBlock(label: block.label, headers: block.headers, der: der))
    }

    /// The label of a line `prefix` + label + `-----`, if the label is an RFC 7468 label: 1 to
    /// ``maximumLabelLength`` characters of printable ASCII but `-`, spaces only inside.
    private static func label(of line: ArraySlice<UInt8>, between prefix: [UInt8]) -> String? {
        guard line.starts(with: prefix), line.suffix(dashes.count).elementsEqual(dashes) else { return nil }
        let label = line.dropFirst(prefix.count).dropLast(dashes.count)
        guard (1...maximumLabelLength).contains(label.count),
            label.first != 0x20, label.last != 0x20,
            label.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "-") })
        else { return nil }
        return String(decoding: label, as: UTF8.self)
    }

    /// `line` without the spaces and tabs at either end.
    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = line.firstIndex(where: { !blank($0) }), let last = line.lastIndex(where: { !blank($0) })
        else { return [] }
        return line[first...last]
    }
}
