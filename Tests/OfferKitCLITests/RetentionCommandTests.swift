import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit retention …` end to end against the App Store Server API stand-in: every command's success
/// (text and `--format json`), Apple's refusals (exit 4, naming Apple's code and meaning), OfferKit's
/// own checks before sending (exit 4 or 2, nothing sent), and the tokens as the stand-in saw them.
@Suite("offerkit retention against the App Store Server API stand-in", .serialized)
struct RetentionCommandTests {
    typealias Fixture = RetentionFixture
    static var enabled: Bool {
        get async { await Fixture.available || Independent.isCI }
    }

    @Test(
        "url set, get, delete; Apple's refusals; a production URL needs a passed test",
        .enabled(Fixture.reason) { await enabled })
    func realtimeURL() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        let missing = try await fixture.run(["url", "get"])
        #expect(missing.status == 4, "\(missing)")
        #expect(
            missing.stderr.contains("4040021 RealtimeUrlNotFoundError (the URL for the endpoint is not configured)"))
        let url = "https://retention.example.test/v1/retention/realtime"
        let set = try await fixture.run(["url", "set", url])
        #expect(set.status == 0, "\(set)")
        #expect(set.output == "realtime URL set in Sandbox: \(url)")
        let got = try await fixture.run(["url", "get"])
        #expect(got.output == url, "\(got)")
        let json = try await fixture.run(["url", "get", "--format", "json"]).json
        #expect(json == JSON.parse(#"{"environment": "Sandbox", "realtimeURL": "\#(url)"}"#))
        let setJSON = try await fixture.run(["url", "set", url, "--format", "json"]).json
        #expect(setJSON?["realtimeURL"]?.string == url)

        for bad in ["http://retention.example.test/x", "https://e.test/" + String(repeating: "a", count: 243)] {
            let refused = try await fixture.run(["url", "set", bad])
            #expect(refused.status == 4, "\(refused)")
            #expect(refused.stderr.contains("URL"), "\(refused)")
        }
        await #expect(
            try fixture.requests("PUT /inApps/v1/messaging/realtime/url") == 2, "the refused URLs were never sent")

        let deleted = try await fixture.run(["url", "delete", "--format", "json"])
        #expect(deleted.json == JSON.parse(#"{"environment": "Sandbox", "deleted": true}"#), "\(deleted)")
        let again = try await fixture.run(["url", "delete"])
        #expect(again.status == 4 && again.stderr.contains("RealtimeUrlNotFoundError"), "\(again)")

        let production = try await Fixture(environment: "Production")
        defer { production.stop() }
        let forbidden = try await production.run(["url", "set", url, "--environment", "production"])
        #expect(forbidden.status == 4, "\(forbidden)")
        #expect(forbidden.stderr.contains("4030026 ForbiddenNoPassingTestError"), "\(forbidden)")
        try await production.standIn.configure(#"{"performanceTestPassed": true}"#)
        let allowed = try await production.run(["url", "set", url, "--environment", "production", "--format", "json"])
        #expect(allowed.json?["environment"]?.string == "Production", "\(allowed)")
    }

    @Test(
        "message upload (flags and Apple's JSON), list, delete; limits checked before sending",
        .enabled(Fixture.reason) { await enabled })
    func messages() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        let id = Fixture.message
        let uploaded = try await fixture.run([
            "message", "upload", "--message-identifier", id.uppercased(), "--header", "Before you go",
            "--body", "Half price for three months.", "--format", "json",
        ])
        #expect(
            uploaded.json == JSON.parse(#"{"environment":"Sandbox","messageIdentifier":"\#(id)","uploaded":true}"#),
            "\(uploaded)")
        let listed = try await fixture.run(["message", "list", "--format", "json"])
        #expect(
            listed.json
                == JSON.parse(
                    #"{"environment":"Sandbox","messageIdentifiers":[{"messageIdentifier":"\#(id)","messageState":"PENDING"}]}"#
                ),
            "\(listed)")
        try await fixture.standIn.review(kind: "message", identifier: id)
        await #expect(try fixture.run(["message", "list"]).output == "\(id) APPROVED")

        // An identifier Apple already has: refused from the message list, before sending (Apple would
        // answer 409 MessageAlreadyExistsError).
        let putsBefore = try await fixture.requests("PUT /inApps/v1/messaging/message/{id}")
        let twice = try await fixture.run([
            "message", "upload", "--message-identifier", id, "--header", "h", "--body", "b",
        ])
        #expect(twice.status == 4, "\(twice)")
        #expect(twice.stderr.contains("\(id) is already in Apple's message list, so nothing was sent"), "\(twice)")
        await #expect(try fixture.requests("PUT /inApps/v1/messaging/message/{id}") == putsBefore)

        // Apple's limits, checked before anything is sent: each names its flag.
        let sentBefore = try await fixture.requests("PUT /inApps/v1/messaging/message/{id}")
        let long = String(repeating: "x", count: 67)
        let refusals: [([String], Int32, String)] = [
            (["--header", long, "--body", "b"], 4, "--header is 67 characters long: at most 66"),
            (["--header", "h", "--body", String(repeating: "y", count: 145)], 4, "--body is 145 characters long"),
            (
                [
                    "--header", "h", "--body", "b", "--image-identifier", id, "--alt-text",
                    String(repeating: "z", count: 151),
                ], 4, "--alt-text is 151"
            ),
            (["--header", "h", "--body", "b", "--header-position", "ABOVE_IMAGE"], 4, "--header-position is invalid"),
            (
                ["--header", "h", "--body", "b", "--image-identifier", "img-1", "--alt-text", "a"], 4,
                "--image-identifier is invalid"
            ),
            (["--header", "h", "--body", "b", "--image-identifier", id], 2, "both --image-identifier and --alt-text"),
            (["--header", "h", "--body", "b", "--bullet-point", "t"], 2, "--bullet-image and --bullet-alt-text"),
            (["--header", "h"], 2, "give --header and --body"),
            (
                ["--header", "h", "--body", "b", "--header-position", "LEFT"], 2,
                #""LEFT" is not "ABOVE_BODY" or "ABOVE_IMAGE" (in any case)"#
            ),
        ]
        for (flags, status, text) in refusals {
            let result = try await fixture.run(
                ["message", "upload", "--message-identifier", UUID().uuidString] + flags)
            #expect(result.status == status, "\(result)")
            #expect(result.stderr.contains(text), "\(result)")
        }
        let bullets = (0..<6).flatMap { _ in ["--bullet-point", "t", "--bullet-image", id, "--bullet-alt-text", "a"] }
        let six = try await fixture.run(
            ["message", "upload", "--message-identifier", UUID().uuidString, "--header", "h", "--body", "b"] + bullets)
        #expect(six.status == 4 && six.stderr.contains("at most 5 bullet points"), "\(six)")
        let badId = try await fixture.run([
            "message", "upload", "--message-identifier", "msg-1", "--header", "h", "--body", "b",
        ])
        #expect(
            badId.status == 4 && badId.stderr.contains("--message-identifier is invalid: expected a UUID"), "\(badId)")
        await #expect(
            try fixture.requests("PUT /inApps/v1/messaging/message/{id}") == sentBefore, "nothing refused was sent")

        // An image and bullet points: the stand-in stores exactly what Apple's JSON says.
        let image = UUID().uuidString.lowercased()
        let icon = UUID().uuidString.lowercased()
        await #expect(
            try fixture.run([
                "image", "upload", try fixture.png("full.png", width: 3840, height: 160), "--image-identifier", image,
            ]).status == 0)
        await #expect(
            try fixture.run([
                "image", "upload", try fixture.png("icon.png", width: 1024, height: 1024), "--image-identifier", icon,
                "--image-size", "BULLET_POINT",
            ]).status == 0)
        let rich = UUID().uuidString.lowercased()
        let withImage = try await fixture.run([
            "message", "upload", "--message-identifier", rich, "--header", "Stay", "--body", "Everything stays.",
            "--image-identifier", image, "--alt-text", "A cat", "--bullet-point", "All episodes", "--bullet-image",
            icon,
            "--bullet-alt-text", "Play", "--bullet-point", "No ads", "--bullet-image", icon, "--bullet-alt-text",
            "Quiet",
            "--header-position", "ABOVE_IMAGE",
        ])
        #expect(withImage.status == 0, "\(withImage)")
        let stored = try await #require((try fixture.standIn.app()["messages"] as? [[String: Any]])?.last?["body"])
        let expected: [String: Any] = [
            "header": "Stay", "body": "Everything stays.", "image": ["imageIdentifier": image, "altText": "A cat"],
            "bulletPoints": [
                ["text": "All episodes", "imageIdentifier": icon, "altText": "Play"],
                ["text": "No ads", "imageIdentifier": icon, "altText": "Quiet"],
            ],
            "headerPosition": "ABOVE_IMAGE",
        ]
        #expect(try Fixture.canonical(stored) == Fixture.canonical(expected), "\(stored)")

        // Apple's JSON from a file: strict, then the same checks.
        let file = try fixture.folder.write(
            #"{"header": "From a file", "body": "Read strictly.", "headerPosition": "ABOVE_BODY"}"#, to: "message.json")
        let fromFile = try await fixture.run([
            "message", "upload", "--message-identifier", UUID().uuidString, "--from-file", file,
        ])
        #expect(fromFile.status == 0, "\(fromFile)")
        let unknown = try fixture.folder.write(#"{"header": "h", "body": "b", "footer": "x"}"#, to: "unknown.json")
        let strict = try await fixture.run([
            "message", "upload", "--message-identifier", UUID().uuidString, "--from-file", unknown,
        ])
        #expect(strict.status == 4 && strict.stderr.contains("footer is not a field"), "\(strict)")
        let tooLong = try fixture.folder.write(
            #"{"header": "h", "body": "b", "bulletPoints": [{"text": "\#(long)", "imageIdentifier": "\#(icon)", "altText": "a"}]}"#,
            to: "long.json")
        let longFile = try await fixture.run([
            "message", "upload", "--message-identifier", UUID().uuidString, "--from-file", tooLong,
        ])
        #expect(
            longFile.status == 4 && longFile.stderr.contains("bulletPoints[0].text is 67 characters long"),
            "\(longFile)")

        // Apple refuses what only it can know: an image that is not a bullet icon.
        let wrongIcon = try await fixture.run([
            "message", "upload", "--message-identifier", UUID().uuidString, "--header", "h", "--body", "b",
            "--bullet-point", "t", "--bullet-image", image, "--bullet-alt-text", "a",
        ])
        #expect(wrongIcon.status == 4 && wrongIcon.stderr.contains("4000216 BadRequestImageSizeError"), "\(wrongIcon)")

        let deleted = try await fixture.run(["message", "delete", id, "--format", "json"])
        #expect(
            deleted.json == JSON.parse(#"{"environment":"Sandbox","messageIdentifier":"\#(id)","deleted":true}"#),
            "\(deleted)")
        let gone = try await fixture.run(["message", "delete", id])
        #expect(gone.status == 4, "\(gone)")
        #expect(
            gone.stderr.contains(
                "Apple refused Delete Message (DELETE /inApps/v1/messaging/message/\(id)) with 404: 4040015 "
                    + "MessageNotFoundError (the system cannot find the message identifier)"),
            "Apple's code, name and meaning; the path is shown, not redacted: \(gone)")
    }

    @Test("image upload (PNG checked before sending), list, delete", .enabled(Fixture.reason) { await enabled })
    func images() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        let full = UUID().uuidString.lowercased()
        let uploaded = try await fixture.run([
            "image", "upload", try fixture.png("full.png", width: 3840, height: 2160, colorType: 0),
            "--image-identifier",
            full,
            "--format", "json",
        ])
        #expect(uploaded.status == 0, "\(uploaded)")
        #expect(uploaded.json?["imageSize"]?.string == "FULL_SIZE")
        #expect(uploaded.json?["width"]?.int == 3840 && uploaded.json?["height"]?.int == 2160)
        #expect(uploaded.json?["uploaded"]?.bool == true && uploaded.json?["environment"]?.string == "Sandbox")
        let icon = UUID().uuidString.lowercased()
        let iconUpload = try await fixture.run([
            "image", "upload", try fixture.png("icon.png", width: 1024, height: 1024), "--image-identifier", icon,
            "--image-size", "bullet_point",
        ])
        #expect(iconUpload.status == 0 && iconUpload.output.contains("BULLET_POINT, 1024 × 1024"), "\(iconUpload)")
        let listed = try await fixture.run(["image", "list", "--format", "json"])
        #expect(
            listed.json
                == JSON.parse(
                    #"{"environment":"Sandbox","imageIdentifiers":[{"imageIdentifier":"\#(full)","imageState":"PENDING","imageSize":"FULL_SIZE"},{"imageIdentifier":"\#(icon)","imageState":"PENDING","imageSize":"BULLET_POINT"}]}"#
                ), "\(listed)")
        await #expect(
            try fixture.run(["image", "list"]).output == "\(full) PENDING FULL_SIZE\n\(icon) PENDING BULLET_POINT")

        let sent = try await fixture.requests("PUT /inApps/v1/messaging/image/{id}")
        let notPNG = try fixture.folder.write("GIF89a", to: "cat.gif")
        let refusals: [(String, [String], String)] = [
            (try fixture.png("narrow.png", width: 3839, height: 160), [], "FULL_SIZE image of 3840 × 160…2160 pixels"),
            (try fixture.png("low.png", width: 3840, height: 159), [], "found 3840 × 159"),
            (
                try fixture.png("square.png", width: 1024, height: 1000), ["--image-size", "BULLET_POINT"],
                "1024 × 1024"
            ),
            (
                try fixture.png("alpha.png", width: 1024, height: 1024, colorType: 6),
                ["--image-size", "BULLET_POINT"], "alpha channel"
            ),
            (
                try fixture.png("trns.png", width: 3840, height: 160, extraChunks: [("tRNS", [0, 0, 0, 0, 0, 0])]), [],
                "a tRNS chunk"
            ),
            (notPNG, [], "expected a PNG image"),
        ]
        for (file, flags, text) in refusals {
            let result = try await fixture.run(
                ["image", "upload", file, "--image-identifier", UUID().uuidString] + flags)
            #expect(result.status == 4, "\(result)")
            #expect(result.stderr.contains(text), "\(result)")
        }
        let missing = try await fixture.run([
            "image", "upload", fixture.folder.file("none.png"), "--image-identifier", full,
        ])
        #expect(missing.status == 5, "\(missing)")
        let size = try await fixture.run([
            "image", "upload", notPNG, "--image-identifier", full, "--image-size", "HUGE",
        ])
        #expect(size.status == 2, "\(size)")
        await #expect(try fixture.requests("PUT /inApps/v1/messaging/image/{id}") == sent, "nothing refused was sent")
        let twice = try await fixture.run([
            "image", "upload", try fixture.png("again.png", width: 3840, height: 160), "--image-identifier", full,
        ])
        #expect(
            twice.status == 4 && twice.stderr.contains("\(full) is already in Apple's image list, so nothing was sent"),
            "\(twice)")

        await #expect(
            try fixture.run([
                "message", "upload", "--message-identifier", Fixture.message, "--header", "h", "--body", "b",
                "--image-identifier", full, "--alt-text", "a",
            ]).status == 0)
        let inUse = try await fixture.run(["image", "delete", full])
        #expect(inUse.status == 4 && inUse.stderr.contains("4030019 ImageInUseError"), "\(inUse)")
        await #expect(try fixture.run(["message", "delete", Fixture.message]).status == 0)
        let deleted = try await fixture.run(["image", "delete", full.uppercased(), "--format", "json"])
        #expect(
            deleted.json == JSON.parse(#"{"environment":"Sandbox","imageIdentifier":"\#(full)","deleted":true}"#),
            "\(deleted)")
        let gone = try await fixture.run(["image", "delete", full])
        #expect(gone.status == 4 && gone.stderr.contains("4040014 ImageNotFoundError"), "\(gone)")
    }

    @Test(
        "default set, get, delete; Apple's approval, product and locale rules",
        .enabled(Fixture.reason) { await enabled })
    func defaultMessages() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        let id = Fixture.message
        let product = Fixture.monthly
        await #expect(
            try fixture.run(["message", "upload", "--message-identifier", id, "--header", "h", "--body", "b"]).status
                == 0)
        let pending = try await fixture.run(["default", "set", product, "en-US", "--message-identifier", id])
        #expect(pending.status == 4 && pending.stderr.contains("4030017 MessageNotApprovedError"), "\(pending)")
        try await fixture.standIn.review(kind: "message", identifier: id)
        let set = try await fixture.run([
            "default", "set", product, "en-US", "--message-identifier", id, "--format", "json",
        ])
        #expect(
            set.json
                == JSON.parse(
                    #"{"environment":"Sandbox","productId":"\#(product)","locale":"en-US","messageIdentifier":"\#(id)"}"#
                ),
            "\(set)")
        await #expect(try fixture.run(["default", "get", product, "en-US"]).output == id)
        let json = try await fixture.run(["default", "get", product, "en-US", "--format", "json"]).json
        #expect(json?["messageIdentifier"]?.string == id && json?["locale"]?.string == "en-US")

        let locale = try await fixture.run(["default", "get", product, "en-us"])
        #expect(locale.status == 4 && locale.stderr.contains("4000164 InvalidLocaleError"), "\(locale)")
        let unknown = try await fixture.run([
            "default", "set", "com.example.unknown", "en-US", "--message-identifier", id,
        ])
        #expect(unknown.status == 4 && unknown.stderr.contains("4000023 InvalidProductIdError"), "\(unknown)")
        for (arguments, text) in [
            (["default", "get", "com example", "en-US"], "PRODUCT_ID is invalid"),
            (["default", "get", product, "en_US/x"], "LOCALE is invalid"),
            (["default", "set", product, "en-US", "--message-identifier", "m-1"], "--message-identifier is invalid"),
        ] {
            let refused = try await fixture.run(arguments)
            #expect(refused.status == 4 && refused.stderr.contains(text), "\(refused)")
        }
        let deleted = try await fixture.run(["default", "delete", product, "en-US", "--format", "json"])
        #expect(deleted.json?["deleted"]?.bool == true, "\(deleted)")
        let none = try await fixture.run(["default", "get", product, "en-US"])
        #expect(none.status == 4 && none.stderr.contains("4040020 DefaultMessageNotFoundError"), "\(none)")
        let noneDeleted = try await fixture.run(["default", "delete", product, "en-US"])
        #expect(noneDeleted.status == 4, "\(noneDeleted)")
    }

    @Test("the tokens as the stand-in saw them; a refused key is exit 3", .enabled(Fixture.reason) { await enabled })
    func tokens() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        let listed = try await fixture.run(["message", "list", "--token-lifetime", "900"])
        #expect(listed.status == 0, "\(listed)")
        let tokens = try await #require(try fixture.standIn.state()["tokens"] as? [[String: [String: Any]]])
        let seen = try #require(tokens.first)
        #expect(
            try Fixture.canonical(seen["header"] ?? [:])
                == Fixture.canonical(["alg": "ES256", "kid": "DEMOKEY123", "typ": "JWT"]))
        let claims = try #require(seen["claims"])
        #expect(claims["iss"] as? String == DemoKey.issuerId)
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["bid"] as? String == DemoKey.bundleId)
        let iat = try #require(claims["iat"] as? Int)
        #expect(claims["exp"] as? Int == iat + 900)
        #expect(abs(Double(iat) - Date().timeIntervalSince1970) < 120)
        #expect(Set(claims.keys) == ["iss", "iat", "exp", "aud", "bid"])

        let credentials = ["--key-file", DemoKey.keyPath, "--key-id", DemoKey.keyId]
        let otherIssuer = try await fixture.run(
            ["message", "list", "--issuer-id", UUID().uuidString.lowercased(), "--bundle-id", DemoKey.bundleId]
                + credentials,
            credentials: false)
        #expect(otherIssuer.status == 3, "\(otherIssuer)")
        #expect(otherIssuer.stderr.contains("Apple refused the App Store Server API token for Get Message List (401)"))
        let otherApp = try await fixture.run(
            ["url", "get", "--issuer-id", DemoKey.issuerId, "--bundle-id", "com.example.unknown"] + credentials,
            credentials: false)
        #expect(otherApp.status == 3, "\(otherApp)")
        let reasons = try await #require(try fixture.standIn.state()["tokenFailureReasons"] as? [String: Int])
        #expect(reasons == ["iss": 1, "bid": 1], "one attempt each: a 401 is not retried")
        let noBundle = try await fixture.run(
            ["message", "list", "--issuer-id", DemoKey.issuerId] + credentials, credentials: false)
        #expect(noBundle.status == 3 && noBundle.stderr.contains("bundle ID"), "\(noBundle)")
    }

    @Test("usage: --environment, --api-base-url, --timeout", .enabled(Fixture.reason) { await enabled })
    func usage() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        for (arguments, text) in [
            (
                ["url", "get", "--environment", "staging"],
                #"--environment: "staging" is not "Sandbox" or "Production""#
            ),
            (["url", "get", "--api-base-url", "http://example.com"], "plain http is refused except on the loopback"),
            (["url", "get", "--timeout", "0"], "--timeout must be 1 to 600"),
            (["url", "get", "--token-lifetime", "3601"], "--token-lifetime must be 1 to 3600"),
        ] {
            let result = try await fixture.run(arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains(text), "\(result)")
        }
        // A PEM body line pasted into an option is redacted from the error, also after /inApps/v1/.
        let line = try #require(
            DemoKey.privatePEM.split(separator: "\n").map(String.init).first { $0.count == 64 && !$0.hasPrefix("-") })
        for value in ["/inApps/v1/" + line, "/inApps/v1/messaging/" + line, line] {
            let result = try await fixture.run(["url", "get", "--api-base-url", value])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("<redacted: "), "\(result)")
            #expect(!result.stderr.contains(String(line.dropFirst(8).prefix(24))), "\(result)")
        }
        let variable = try await fixture.run(
            ["url", "get"], environment: ["OFFERKIT_SERVER_API_URL": "ftp://127.0.0.1"])
        #expect(
            variable.status == 2 && variable.stderr.contains("OFFERKIT_SERVER_API_URL=ftp://127.0.0.1"), "\(variable)")
    }
}
