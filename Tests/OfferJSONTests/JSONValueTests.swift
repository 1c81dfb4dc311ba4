import OfferJSON
import Testing

/// The strict parser: members, duplicates and the time it takes.
@Suite("JSONValue parsing")
struct JSONValueTests {
    @Test("an object with many members parses in linear time and still refuses a duplicate name")
    func manyMembers() throws {
        let members = (0..<50_000).map { "\"k\($0)\":0" }
        let object = try JSONValue.parse(Array(("{" + members.joined(separator: ",") + "}").utf8))
        #expect(object.keys.count == 50_000)
        for duplicateAt in [1, 15, 16, 17, 40_000] {
            let text = "{" + (members[..<duplicateAt] + ["\"k0\":1"]).joined(separator: ",") + "}"
            #expect(throws: (any Error).self) { try JSONValue.parse(Array(text.utf8)) }
        }
    }
}
