import OfferJSON

/// One `-----BEGIN label-----` … `-----END label-----` block of a PEM document.
struct PEMBlock {
    let label: String
    let headers: [String]
    let body: [UInt8]?  // nil when the END line is missing

    /// The DER of the private key in a PEM document, or the error that fits what the document holds.
    /// Accepts CRLF line endings, a missing final newline, and documents that carry other blocks
    /// (such as `EC PARAMETERS`) next to the key.
    static func privateKeyDER(in text: String) throws(KeyLoadingError) -> [UInt8] {
        let blocks = parse(text)
        let keyLabels = ["PRIVATE KEY", "EC PRIVATE KEY"]
        if let block = blocks.first(where: { keyLabels.contains($0.label) }) {
            guard let body = block.body else { throw .truncated }
            if block.headers.contains(where: { $0.hasPrefix("Proc-Type") && $0.contains("ENCRYPTED") }) {
                throw .encryptedKey
            }
            let base64 = body.filter { !$0.isASCIIWhitespace }
            guard base64.allSatisfy({ $0.isBase64Character }), let der = Base64.decode(base64, urlSafe: false) else {
                throw .invalidBase64
            }
            guard !der.isEmpty else { throw .empty }
            return der
        }
        let labels = Set(blocks.map(\.label))
        if labels.contains("ENCRYPTED PRIVATE KEY") { throw .encryptedKey }
        if labels.contains("RSA PRIVATE KEY") || labels.contains("RSA PUBLIC KEY") { throw .rsaKey }
        if labels.contains("PUBLIC KEY") || labels.contains("EC PUBLIC KEY") { throw .publicKey }
        if labels.contains("CERTIFICATE") || labels.contains("TRUSTED CERTIFICATE") { throw .certificate }
        if labels.contains("PKCS12") { throw .pkcs12 }
        if labels.contains("OPENSSH PRIVATE KEY") { throw .unsupportedAlgorithm("OpenSSH key format") }
        if labels.contains("DSA PRIVATE KEY") { throw .unsupportedAlgorithm("DSA") }
        throw .notAKey
    }

    static func parse(_ text: String) -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        var current: (label: String, headers: [String], body: [UInt8])?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingCharacters(in: " \t\r")
            if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                if let open = current { blocks.append(PEMBlock(label: open.label, headers: open.headers, body: nil)) }
                current = (String(line.dropFirst(11).dropLast(5)), [], [])
            } else if line.hasPrefix("-----END "), line.hasSuffix("-----") {
                if let open = current {
                    blocks.append(PEMBlock(label: open.label, headers: open.headers, body: open.body))
                }
                current = nil
            } else if current != nil {
                if line.contains(":") {
                    current!.headers.append(line)
                } else {
                    current!.body.append(contentsOf: line.utf8)
                }
            }
        }
        if let open = current { blocks.append(PEMBlock(label: open.label, headers: open.headers, body: nil)) }
        return blocks
    }
}

extension StringProtocol {
    /// Trims leading and trailing characters made only of the scalars in `set`. Compares
    /// scalars, not `Character`s: in a literal such as `" \t\r\n"`, `"\r\n"` is one
    /// `Character`, so a lone `"\n"` would otherwise not be trimmed.
    func trimmingCharacters(in set: String) -> String {
        let scalars = Set(set.unicodeScalars)
        let trimmed: (Character) -> Bool = { $0.unicodeScalars.allSatisfy(scalars.contains) }
        guard let start = firstIndex(where: { !trimmed($0) }) else { return "" }
        let end = lastIndex(where: { !trimmed($0) })!
        return String(self[start...end])
    }
}
