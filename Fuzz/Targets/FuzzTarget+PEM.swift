import OfferSigning
import SwiftASN1

extension FuzzTarget {
    /// `PEMBlock.scan(_:)` and `PEMBlock.blocks(in:)`: the one PEM reader (private keys, root
    /// certificates, the service's TLS files). The two agree; every label (the only text of the
    /// input a problem names) is short printable ASCII without `-`; a block is read only with
    /// content; written again with 64-character lines (swift-asn1), it reads back the same.
    static func fuzzPEM(_ input: [UInt8]) {
        guard input.count <= 1 << 20 else { return }
        let text = String(decoding: input, as: UTF8.self)
        let scanned = PEMBlock.scan(text)
        let read = try? PEMBlock.blocks(in: text)
        var problems = 0
        for result in scanned {
            let label: String
            switch result {
            case .success(let block):
                label = block.label
                check(!block.der.isEmpty, "a block without content was read")
                let again = PEMDocument(type: block.label, derBytes: block.der).pemString
                let back = try? PEMBlock.blocks(in: again)
                check(
                    back?.count == 1 && back?.first?.label == block.label && back?.first?.der == block.der,
                    "a block does not read back as written")
            case .failure(let problem):
                label = problem.label
                problems += 1
            }
            check(
                (1...PEMBlock.maximumLabelLength).contains(label.utf8.count)
                    && label.utf8.allSatisfy { (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "-") },
                "a label that is not short printable ASCII without '-'")
        }
        check((read != nil) == (problems == 0), "blocks(in:) and scan(_:) disagree")
        check(read.map { $0.count == scanned.count } ?? true, "blocks(in:) and scan(_:) read different blocks")
    }
}
