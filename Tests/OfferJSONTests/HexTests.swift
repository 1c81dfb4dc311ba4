import Foundation
import OfferJSON
import Testing

/// The one hexadecimal formatter: zero-padded numbers, scalar names, bytes both ways.
@Suite("Hex")
struct HexTests {
    @Test("numbers are zero-padded to at least the width asked for, in either case")
    func padded() {
        #expect(Hex.padded(0x1F, digits: 4) == "001F")
        #expect(Hex.padded(0, digits: 4) == "0000")
        #expect(Hex.padded(0x10FFFF as UInt32, digits: 4) == "10FFFF")
        #expect(Hex.padded(UInt64(0xAB), digits: 16, uppercase: false) == "00000000000000ab")
        #expect(Hex.padded(UInt64.max, digits: 16, uppercase: false) == "ffffffffffffffff")
    }

    @Test("scalar names are U+ and at least four upper-case digits")
    func scalarNames() {
        #expect(Hex.scalarName("\n") == "U+000A")
        #expect(Hex.scalarName("é") == "U+00E9")
        #expect(Hex.scalarName("😀") == "U+1F600")
    }

    @Test("bytes to text and back, in both cases; odd lengths and non-digits are refused")
    func bytes() {
        let all = (0...255).map { UInt8($0) }
        let lower = Hex.string(all)
        #expect(lower.count == 512 && lower.hasPrefix("000102") && lower.hasSuffix("fdfeff"))
        #expect(Hex.string(all, uppercase: true) == lower.uppercased())
        #expect(Hex.bytes(lower) == all)
        #expect(Hex.bytes(lower.uppercased()) == all)
        #expect(Hex.bytes("abc") == nil)
        #expect(Hex.bytes("0g") == nil)
        #expect(Hex.bytes("") == [])
    }

    @Test("a UUID is written lower-case, as Apple's signatures use it")
    func uuid() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(uuid.lowercasedString == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect(uuid.isVersion4)
    }
}
