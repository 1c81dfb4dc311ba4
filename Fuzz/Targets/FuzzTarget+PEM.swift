import OfferAppleVerification
import SwiftASN1

extension FuzzTarget {
    /// `PEMBlock.blocks(in:)`: the PEM reader of root certificates and the service's TLS files. A
    /// block is read only with content; written again with 64-character lines (swift-asn1), it reads
    /// back the same.
    static func fuzzPEM(_ input: [UInt8]) {
        guard input.count <= 1 << 20 else { return }
        guard let blocks = try? PEMBlock.blocks(in: String(decoding: input, as: UTF8.self)) else { return }
        for block in blocks {
            check(!block.der.isEmpty, "a block without content was read")
            let again = PEMDocument(type: block.label, derBytes: block.der).pemString
            check((try? PEMBlock.blocks(in: again)) == [block], "a block does not read back as written")
        }
    }
}
