import Foundation
import OfferJSON
import Testing

/// The writer every signed payload is built with: its integers, as Foundation's JSON parser reads
/// them back.
@Suite("JSON writer")
struct JSONWriterTests {
    static let values: [Int64] = [0, 1, -1, 9, 10, -10, 1_700_000_000_000, Int64.max, Int64.min, Int64.min + 1]

    @Test("integers are written in decimal, from Int64.min to Int64.max, and parse back as written")
    func integersRoundTrip() throws {
        for value in Self.values {
            var out: [UInt8] = []
            JSONWriter.appendDecimal(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
        var writer = JSONWriter()
        writer.beginObject()
        for (index, value) in Self.values.enumerated() {
            writer.key(StaticString.names[index])
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
        for (index, value) in Self.values.enumerated() {
            #expect(parsed[String(describing: StaticString.names[index])]?.int64Value == value)
        }
        #expect(parsed["int"]?.intValue == -42)
        #expect(parsed["intMin"]?.intValue == Int.min)
        #expect(parsed["intMax"]?.intValue == Int.max)
    }
}

extension StaticString {
    /// Member names for ``JSONWriterTests``, one per value.
    fileprivate static let names: [StaticString] = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
}
