import OfferRetentionAPI
import OfferSigning
import Testing

/// Apple's limits on a message (Upload Message, BulletPoint), checked before it is sent, and the JSON
/// OfferKit writes and reads.
@Suite("UploadMessageRequestBody")
struct UploadMessageRequestBodyTests {
    static let image = "3F2B1C4E-8A7D-4F3E-9B2A-1C0D5E6F7A8B"
    static let icon = "0a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d"

    static func body(
        header: String = "h", body: String = "b", image: UploadMessageImage? = nil, bullets: [BulletPoint]? = nil,
        position: HeaderPosition? = nil
    ) -> UploadMessageRequestBody {
        UploadMessageRequestBody(
            header: header, body: body, image: image, bulletPoints: bullets, headerPosition: position)
    }

    static func bullet(_ text: String = "t", alt: String = "a") -> BulletPoint {
        BulletPoint(text: text, imageIdentifier: icon, altText: alt)
    }

    @Test func theLimitsAreApples() throws {
        let longest = Self.body(
            header: String(repeating: "x", count: 66), body: String(repeating: "y", count: 144),
            image: UploadMessageImage(imageIdentifier: Self.image, altText: String(repeating: "z", count: 150)),
            bullets: Array(repeating: Self.bullet(String(repeating: "w", count: 66)), count: 5), position: .aboveImage)
        let checked = try longest.validated()
        #expect(checked.image?.imageIdentifier == Self.image.lowercased(), "identifiers are sent in lower case")
        // Characters are Unicode code points, as Apple's App Store Server Library counts them.
        _ = try Self.body(header: String(repeating: "😀", count: 66)).validated()
        #expect(throws: RequestValidationError.tooLong(field: "header", maximum: 66, actual: 67)) {
            try Self.body(header: String(repeating: "é", count: 67)).validated()
        }
        let cases: [(UploadMessageRequestBody, RequestValidationError)] = [
            (Self.body(body: String(repeating: "y", count: 145)), .tooLong(field: "body", maximum: 144, actual: 145)),
            (Self.body(header: ""), .empty(field: "header")),
            (
                Self.body(
                    image: UploadMessageImage(imageIdentifier: Self.image, altText: String(repeating: "z", count: 151))),
                .tooLong(field: "image.altText", maximum: 150, actual: 151)
            ),
            (
                Self.body(bullets: [Self.bullet(), Self.bullet(String(repeating: "w", count: 67))]),
                .tooLong(field: "bulletPoints[1].text", maximum: 66, actual: 67)
            ),
            (Self.body(bullets: [Self.bullet(alt: "")]), .empty(field: "bulletPoints[0].altText")),
        ]
        for (body, error) in cases {
            #expect(throws: error) { try body.validated() }
        }
        #expect(throws: RequestValidationError.self) {
            try Self.body(bullets: Array(repeating: Self.bullet(), count: 6)).validated()
        }
        #expect(throws: RequestValidationError.self) { try Self.body(position: .aboveImage).validated() }
        #expect(throws: RequestValidationError.self) {
            try Self.body(image: UploadMessageImage(imageIdentifier: "image-1", altText: "a")).validated()
        }
    }

    @Test func theJSONIsApplesAndLeavesOutWhatIsAbsent() throws {
        let plain = try Self.body(header: "Before you go", body: "Half \"price\"").validated()
        #expect(
            String(decoding: plain.jsonBytes(), as: UTF8.self) == #"{"header":"Before you go","body":"Half \"price\""}"#
        )
        let full = try Self.body(
            image: UploadMessageImage(imageIdentifier: Self.image, altText: "A cat"), bullets: [Self.bullet()],
            position: .aboveImage
        ).validated()
        #expect(
            String(decoding: full.jsonBytes(), as: UTF8.self)
                == #"{"header":"h","body":"b","image":{"imageIdentifier":"3f2b1c4e-8a7d-4f3e-9b2a-1c0d5e6f7a8b","altText":"A cat"},"bulletPoints":[{"text":"t","imageIdentifier":"0a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d","altText":"a"}],"headerPosition":"ABOVE_IMAGE"}"#
        )
        #expect(try UploadMessageRequestBody.read(json: full.jsonBytes()) == full, "what it writes, it reads back")
    }

    @Test func readingIsStrict() throws {
        let refusals: [(String, RequestDecodingError)] = [
            (#"{"header": "h"}"#, .missingField(path: "body", hint: nil)),
            (#"{"header": "h", "body": "b", "footer": "x"}"#, .unknownField(path: "footer")),
            (#"{"header": "h", "body": 5}"#, .wrongType(path: "body", expected: "a string, found an integer")),
            (
                #"{"header": "h", "body": "b", "image": null}"#,
                .wrongType(path: "image", expected: "a value, found null (leave the member out instead)")
            ),
            (
                #"{"header": "h", "body": "b", "image": {"imageIdentifier": "x"}}"#,
                .missingField(path: "image.altText", hint: nil)
            ),
            (
                #"{"header": "h", "body": "b", "bulletPoints": [{"text": "t", "imageIdentifier": "x", "altText": "a", "x": 1}]}"#,
                .unknownField(path: "bulletPoints[0].x")
            ),
        ]
        for (text, error) in refusals {
            #expect(throws: error, "\(text)") { try UploadMessageRequestBody.read(json: Array(text.utf8)) }
        }
        #expect(throws: RequestDecodingError.self) {
            try UploadMessageRequestBody.read(json: Array(#"{"header": "h", "header": "i", "body": "b"}"#.utf8))
        }
        #expect(throws: RequestDecodingError.self) {
            try UploadMessageRequestBody.read(
                json: Array(#"{"header": "h", "body": "b", "headerPosition": "BELOW"}"#.utf8))
        }
        #expect(throws: RequestDecodingError.self) { try UploadMessageRequestBody.read(json: Array(#"[]"#.utf8)) }
    }

    @Test func identifiersAndTheRealtimeURL() throws {
        #expect(try RetentionIdentifier.uuid(Self.image, field: "f") == Self.image.lowercased())
        for text in ["", "3f2b1c4e8a7d4f3e9b2a1c0d5e6f7a8b", "{3f2b1c4e-8a7d-4f3e-9b2a-1c0d5e6f7a8b}", "x"] {
            #expect(throws: RequestValidationError.self) { try RetentionIdentifier.uuid(text, field: "f") }
        }
        #expect(
            try RetentionIdentifier.productId("com.example_app.monthly-1", field: "p") == "com.example_app.monthly-1")
        // `.` and `..` are path segments a URL resolves to another endpoint.
        for text in ["", "com example", "com/example", String(repeating: "a", count: 256), ".", ".."] {
            #expect(throws: RequestValidationError.self) { try RetentionIdentifier.productId(text, field: "p") }
        }
        #expect(try RetentionIdentifier.locale("zh-Hans", field: "l") == "zh-Hans")
        for text in ["", "en_US", "-en", "en/US"] {
            #expect(throws: RequestValidationError.self) { try RetentionIdentifier.locale(text, field: "l") }
        }
        #expect(throws: RequestValidationError.self) {
            try RetentionIdentifier.originalTransactionId("2000-1", field: "t")
        }
        let url = "https://retention.example.test/" + String(repeating: "a", count: 225)
        #expect(try RealtimeURL.checked(url) == url)
        #expect(throws: RequestValidationError.tooLong(field: "realtimeURL", maximum: 256, actual: 257)) {
            try RealtimeURL.checked(url + "a")
        }
        for text in [
            "http://retention.example.test/x", "https://", "https://user@example.test/x", "https://e.test/#x", "",
        ] {
            #expect(throws: RequestValidationError.self, "\(text)") { try RealtimeURL.checked(text) }
        }
    }
}
