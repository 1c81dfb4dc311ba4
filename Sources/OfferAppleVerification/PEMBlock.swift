import Foundation

/// A block of a PEM file (`-----BEGIN LABEL-----`, base64, `-----END LABEL-----`), read as OpenSSL
/// reads one: base64 lines of any width, CRLF or LF, text outside the blocks ignored.
///
/// swift-asn1's `PEMDocument` reader wants lines of exactly 64 characters and refuses a whole file
/// otherwise, though OpenSSL (and so every web server) reads other widths: root certificates and
/// the service's TLS files are read here, and each block is handed on as DER.
package struct PEMBlock: Sendable, Equatable {
    /// The label, such as `CERTIFICATE` or `PRIVATE KEY`.
    package let label: String
    /// The decoded base64.
    package let der: [UInt8]

    /// Why a file's blocks cannot be read.
    package enum Problem: Error, Equatable {
        /// A BEGIN line with no END line of the same label after it.
        case unterminated(label: String)
        /// A block whose content is not base64 (or holds headers, as an encrypted legacy key does).
        case notBase64(label: String)
    }

    /// Every block of `text`, in order; none when it has no BEGIN line.
    package static func blocks(in text: String) throws(Problem) -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        var open: (label: String, base64: String)?
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let current = open {
                if line == "-----END \(current.label)-----" {
                    guard let data = Data(base64Encoded: current.base64), !data.isEmpty else {
                        throw .notBase64(label: current.label)
                    }
                    blocks.append(PEMBlock(label: current.label, der: Array(data)))
                    open = nil
                } else {
                    open?.base64 += line
                }
            } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 {
                open = (String(line.dropFirst(11).dropLast(5)), "")
            }
        }
        if let open { throw .unterminated(label: open.label) }
        return blocks
    }
}
