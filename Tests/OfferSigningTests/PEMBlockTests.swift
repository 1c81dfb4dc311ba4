import OfferSigning
import Testing

/// ``PEMBlock``, the package's one PEM reader: what it reads, and how each broken block is named
/// (by its label only, never by other text of the file).
@Suite("PEMBlock")
struct PEMBlockTests {
    static let body = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg"

    @Test func linesOfAnyWidthCRLFIndentationAndTextOutsideAreRead() throws {
        let text =
            "Bag Attributes: x\r\n  -----BEGIN PRIVATE KEY-----  \r\n\(Self.body.prefix(20))\r\n"
            + "  \(Self.body.dropFirst(20))\r\n-----END PRIVATE KEY-----\r\n# end"
        let blocks = try PEMBlock.blocks(in: text)
        #expect(blocks.map(\.label) == ["PRIVATE KEY"])
        #expect(blocks.first?.der.count == 36)
        #expect(blocks.first?.isEncrypted == false)
    }

    @Test func headersAreKeptApartAndMarkAnEncryptedKey() throws {
        let text =
            "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n"
            + "\(Self.body)\n-----END EC PRIVATE KEY-----\n"
        let block = try #require(try PEMBlock.blocks(in: text).first)
        #expect(block.headers == ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,00"])
        #expect(block.isEncrypted)
        #expect(block.der.count == 36)
    }

    /// `echo $KEY > key.pem` and `\n` written as two characters: no BEGIN line of its own, so no
    /// block, and no label made of the key's base64.
    @Test(arguments: [" ", "\\n"])
    func aKeyFlattenedToOneLineHasNoBlockAndNoLabel(_ separator: String) throws {
        let flat = ["-----BEGIN PRIVATE KEY-----", Self.body, "-----END PRIVATE KEY-----"].joined(separator: separator)
        #expect(try PEMBlock.blocks(in: flat).isEmpty)
        #expect(PEMBlock.scan(flat).isEmpty)
        let unterminated = ["-----BEGIN PRIVATE KEY-----", Self.body].joined(separator: separator)
        #expect(try PEMBlock.blocks(in: unterminated).isEmpty)
    }

    @Test func aLabelMustLookLikeAnRFC7468Label() throws {
        let long = String(repeating: "A", count: PEMBlock.maximumLabelLength + 1)
        for label in [long, "A-B", " PRIVATE KEY", "KEY\u{7}", "KÉY", ""] {
            #expect(try PEMBlock.blocks(in: "-----BEGIN \(label)-----\nAAAA\n").isEmpty, "\(label)")
        }
        let longest = String(repeating: "A", count: PEMBlock.maximumLabelLength)
        let text = "-----BEGIN \(longest)-----\nAAAA\n-----END \(longest)-----\n"
        #expect(try PEMBlock.blocks(in: text).map(\.label) == [longest])
    }

    @Test func aBeginLineInsideAnOpenBlockLeavesItUnterminated() {
        let text =
            "-----BEGIN CERTIFICATE-----\nMIIB\n-----BEGIN CERTIFICATE-----\n\(Self.body)\n"
            + "-----END CERTIFICATE-----\n"
        #expect(throws: PEMBlock.Problem.unterminated(label: "CERTIFICATE")) { try PEMBlock.blocks(in: text) }
        let scanned = PEMBlock.scan(text)
        #expect(scanned.count == 2)
        #expect((try? scanned.last?.get())?.der.count == 36)
    }

    @Test func anEndLineOfAnotherLabelBreaksTheBlock() {
        let text = "-----BEGIN CERTIFICATE-----\n\(Self.body)\n-----END PRIVATE KEY-----\n"
        #expect(throws: PEMBlock.Problem.mismatchedEnd(label: "CERTIFICATE")) { try PEMBlock.blocks(in: text) }
        // An END line of any shape does not name its label in the message.
        let flat = "-----BEGIN CERTIFICATE-----\n\(Self.body)\n-----END \(Self.body)-----\n"
        #expect(throws: PEMBlock.Problem.mismatchedEnd(label: "CERTIFICATE")) { try PEMBlock.blocks(in: flat) }
    }

    @Test func eachProblemHasItsMessage() {
        let cases: [(String, PEMBlock.Problem, String)] = [
            (
                "-----BEGIN CERTIFICATE-----\nMIIB\n", .unterminated(label: "CERTIFICATE"),
                "a BEGIN CERTIFICATE line without its END CERTIFICATE line"
            ),
            (
                "-----BEGIN CERTIFICATE-----\nMIIB\n-----END X509 CRL-----\n", .mismatchedEnd(label: "CERTIFICATE"),
                "a BEGIN CERTIFICATE line whose END line names another label"
            ),
            (
                "-----BEGIN CERTIFICATE-----\n\n-----END CERTIFICATE-----\n", .empty(label: "CERTIFICATE"),
                "an empty CERTIFICATE block"
            ),
            (
                "-----BEGIN CERTIFICATE-----\n%%%%\n-----END CERTIFICATE-----\n", .notBase64(label: "CERTIFICATE"),
                "a CERTIFICATE block whose content is not base64"
            ),
        ]
        for (text, problem, message) in cases {
            #expect(throws: problem) { try PEMBlock.blocks(in: text) }
            #expect(problem.description == message)
        }
    }
}
