import Foundation
import OfferJSON
import Testing

@Suite("Base64")
struct Base64Tests {
    @Test("decoding agrees with Foundation on random bytes, both alphabets, contiguous or not")
    func agreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
            #expect(Base64.decode(Array(standard.utf8), urlSafe: false) == bytes)
            #expect(Base64.decode(standard.utf8, urlSafe: false) == bytes)
            #expect(
                Base64.decode(standard.utf8.lazy.map { $0 }, urlSafe: false) == bytes, "a collection not contiguous")
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64.decode(Array(url.utf8)[...], urlSafe: true) == bytes)
            #expect(Base64.urlString(bytes) == url && Base64.standardString(bytes) == standard)
        }
    }

    @Test(
        "what is not base64 is refused (stricter than Foundation, which takes \"ab=c\")",
        arguments: ["a", "ab=c", "abc==", "a===", "ab+/", "ab\n==", "ab-_"])
    func refused(text: String) {
        let urlSafe = text.contains("+")
        #expect(Base64.decode(Array(text.utf8), urlSafe: urlSafe) == nil, "\(text)")
        #expect(Base64.decode(text.utf8.lazy.map { $0 }, urlSafe: urlSafe) == nil, "\(text)")
    }
}
