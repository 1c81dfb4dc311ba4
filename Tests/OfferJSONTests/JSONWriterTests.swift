import Foundation
import OfferJSON
import Testing

/// The writer every signed payload is built with: its integers, as Foundation's JSON parser reads
/// them back.
@Suite("JSON writer")
struct JSONWriterTests {
    /// Member names and the values written under them.
    static let members: [(name: StaticString, value: Int64)] = [
        ("a", 0), ("b", 1), ("c", -1), ("d", 9), ("e", 10), ("f", -10), ("g", 1_700_000_000_000), ("h", Int64.max),
        ("i", Int64.min), ("j", Int64.min + 1),
    ]

    @Test("integers are written in decimal, from Int64.min to Int64.max, and parse back as written")
    func integersRoundTrip() throws {
        for (_, value) in Self.members {
            var out: [UInt8] = []
            JSONWriter.appendDecimal(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
        var writer = JSONWriter()
        writer.beginObject()
        for (name, value) in Self.members {
            writer.key(name)
            writer.integer(value)
        }
        writer.member("int", Int(-42))
        writer.key("intMin")
        writer.integer(Int.min)
        writer.key("intMax")
        writer.integer(Int.max)
        writer.endObject()
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: NSNumber])
        for (name, value) in Self.members {
            #expect(parsed[String(describing: name)]?.int64Value == value)
        }
        #expect(parsed["int"]?.intValue == -42)
        #expect(parsed["intMin"]?.intValue == Int.min)
        #expect(parsed["intMax"]?.intValue == Int.max)
    }
}
