import OfferJSON
import OfferSigning
import Testing

/// The one reader of app entries (the CLI's config file and the service's `apps`), and the one
/// bundle-ID rule behind it.
@Suite("App credentials entries")
struct AppCredentialsEntryTests {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"

    static func parse(_ text: String) throws(AppCredentialsError) -> [AppCredentialsEntry] {
        try AppCredentialsEntry.parse(Array(text.utf8))
    }

    @Test("entries keep their order and members; missing members are listed in documented order")
    func entries() throws {
        let entries = try Self.parse(
            #"{"com.example.b": {"keyId": "2X9R4HXF34", "keyFile": "k.p8", "issuerId": "\#(Self.issuer)"}, "a.b": {}}"#)
        #expect(
            entries == [
                AppCredentialsEntry(
                    bundleId: "com.example.b", keyFile: "k.p8", keyId: "2X9R4HXF34", issuerId: Self.issuer),
                AppCredentialsEntry(bundleId: "a.b"),
            ])
        #expect(entries[0].missingMembers.isEmpty)
        #expect(entries[1].missingMembers == ["keyFile", "keyId", "issuerId"])
        #expect(entries[0].resolvedKeyFile(folder: "/etc/offerkit") == "/etc/offerkit/k.p8")
        #expect(
            AppCredentialsEntry(bundleId: "a", keyFile: "/abs/k.p8").resolvedKeyFile(folder: "/etc") == "/abs/k.p8")
    }

    @Test(
        "each mistake names its field",
        arguments: [
            (#"[]"#, "(top level)"),
            (#"{"com.example.app": 1}"#, "com.example.app"),
            (#"{"com..app": {}}"#, "com..app"),
            (#"{"a.b": {"keyID": "2X9R4HXF34"}}"#, "a.b.keyID"),
            (#"{"a.b": {"keyFile": 7}}"#, "a.b.keyFile"),
            (#"{"a.b": {"keyFile": ""}}"#, "a.b.keyFile"),
            (#"{"a.b": {"keyId": "2x9r4hxf34"}}"#, "a.b.keyId"),
            (#"{"a.b": {"issuerId": "not-a-uuid"}}"#, "a.b.issuerId"),
            (#"{"a.b": {"appAppleId": "1234567890"}}"#, "a.b.appAppleId"),
            (#"{"a.b": {"appAppleId": 0}}"#, "a.b.appAppleId"),
            (#"{"a.b": {"appAppleId": 9007199254740993}}"#, "a.b.appAppleId"),
            (#"{"a.b": {"appAppleId": 12.5}}"#, "a.b.appAppleId"),
        ])
    func mistakes(text: String, field: String) throws {
        let error = try #require(throws: AppCredentialsError.self) { try Self.parse(text) }
        #expect(error.field == field)
        let message = try #require(error.errorDescription)
        #expect(message.contains(field), "\(message)")
        #expect(message.contains("expected"), "\(message)")
    }

    @Test("appAppleId is an optional integer from 1 to 2^53, never a missing member")
    func appAppleId() throws {
        let entries = try Self.parse(
            #"{"a.b": {"appAppleId": 1234567890}, "c.d": {"appAppleId": 9007199254740992}, "e.f": {}}"#)
        #expect(entries.map(\.appAppleId) == [1_234_567_890, 9_007_199_254_740_992, nil])
        #expect(entries[2].missingMembers == ["keyFile", "keyId", "issuerId"])
    }

    @Test("a bundle ID listed twice is refused, not silently merged")
    func duplicateBundleId() throws {
        let error = try #require(throws: AppCredentialsError.self) {
            try Self.parse(#"{"a.b": {"keyFile": "1.p8"}, "a.b": {"keyFile": "2.p8"}}"#)
        }
        guard case .notJSON(let detail) = error else {
            Issue.record("expected notJSON, got \(error)")
            return
        }
        #expect(detail.contains("duplicate member \"a.b\""))
    }

    @Test("a key pasted as a key ID is not echoed")
    func keyMaterialIsNotEchoed() throws {
        let pasted = String(repeating: "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg", count: 3)
        let error = try #require(throws: AppCredentialsError.self) {
            try Self.parse(#"{"a.b": {"keyId": "\#(pasted)"}}"#)
        }
        #expect(error.errorDescription?.contains("MIGHAgEA") == false, "\(error)")
    }

    @Test("the bundle-ID rule: letters, digits, '-' and '.', no empty component, at most 255 bytes")
    func bundleIdRule() throws {
        let longest = String(repeating: "a", count: 251) + ".app"
        for valid in ["com.example.app", "a", "A-1.b-2", longest] {
            #expect(try Self.parse(#"{"\#(valid)": {}}"#).first?.bundleId == valid)
        }
        for invalid in ["", ".app", "app.", "com..app", "com.example.app!", "com example", "é.app", longest + "x"] {
            let error = try #require(throws: AppCredentialsError.self) { try Self.parse(#"{"\#(invalid)": {}}"#) }
            #expect(error == .invalidBundleId(invalid))
        }
    }
}
