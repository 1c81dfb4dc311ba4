import Testing

@testable import OfferSigning

/// The byte-level identifier check on the signing path must agree exactly with its Unicode
/// definition: no character of category Cc, and no U+2063 INVISIBLE SEPARATOR.
@Suite("Identifier check")
struct PlainTextCheckTests {
    @Test("agrees with Unicode general category Cc and U+2063 for every scalar")
    func agreesWithUnicodeForEveryScalar() {
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates
            let text = "a" + String(Character(scalar)) + "b"
            let expected = scalar.properties.generalCategory != .control && value != 0x2063
            if Check.isPlainText(text.utf8) != expected { disagreements.append(value) }
        }
        #expect(disagreements.isEmpty, "disagree at \(disagreements.prefix(10).map { String($0, radix: 16) })")
    }

    @Test("rejects the separator and controls at the start, middle and end")
    func positions() {
        for bad in ["\u{2063}", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}"] {
            #expect(!Check.isPlainText((bad + "x").utf8))
            #expect(!Check.isPlainText(("x" + bad + "y").utf8))
            #expect(!Check.isPlainText(("x" + bad).utf8))
        }
        #expect(Check.isPlainText("com.example.jährlich_月額 \u{2062}\u{2064}\u{A0}".utf8))
    }
}
