import Foundation
import InteropSupport
import OfferSigning
import Testing

/// The openssl-made key fixtures in `Fixtures/keys/` (see `make-fixtures.sh` there).
/// These are test keys, unrelated to the demo key in `keys-example/`.
enum KeyFixtures {
    static let directory = Demo.fixtures.appendingPathComponent("keys")
    static let keyId = "TESTKEY001"

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    static func text(_ name: String) throws -> String { String(decoding: try data(name), as: UTF8.self) }

    /// The base64 body of the first PEM block in `text`, on one line.
    static func pemBody(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("-----") && !$0.isEmpty }
            .joined()
    }

    /// A public key PEM reduced to its base64 body, for comparing independent of line endings.
    static func publicKeyBody(_ pem: String) -> String { pemBody(pem) }
}

/// Asserts `body` throws exactly `expected`, and that its message is non-empty and helpful.
@discardableResult
func expectKeyLoadingError(
    _ expected: KeyLoadingError, mentioning phrases: [String] = ["P-256"],
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> KeyLoadingError? {
    let error = #expect(throws: KeyLoadingError.self, sourceLocation: sourceLocation) { try body() }
    guard let error else { return nil }
    #expect(error == expected, sourceLocation: sourceLocation)
    let message = error.localizedDescription
    #expect(!message.isEmpty, sourceLocation: sourceLocation)
    #expect(message.count > 30, "message too short to help: \(message)", sourceLocation: sourceLocation)
    for phrase in phrases {
        #expect(message.contains(phrase), "\(message) does not mention \(phrase)", sourceLocation: sourceLocation)
    }
    // Swift's default rendering of an Error is not the LocalizedError text: make sure
    // the message really comes from errorDescription.
    #expect(message == error.errorDescription, sourceLocation: sourceLocation)
    return error
}

@Suite("Key loading")
struct KeyLoadingTests {
    // MARK: - Accepted forms

    /// Every fixture that must load, with the `openssl pkey -pubout` of the same key.
    static let acceptedFixtures: [(file: String, publicKey: String)] = [
        ("p256.pkcs8.pem", "p256.pub.pem"),
        ("p256.sec1.pem", "p256.pub.pem"),
        ("p256.ecparam.pem", "p256.pub.pem"),
        ("p256-genkey.pem", "p256-genkey.pub.pem"),
        ("p256.pkcs8.der", "p256.pub.pem"),
        ("p256.sec1.der", "p256.pub.pem"),
        ("p256.base64.txt", "p256.pub.pem"),
        // DER ending in byte 0x0D: binary input must not be whitespace-trimmed.
        ("p256-ws.pkcs8.der", "p256-ws.pub.pem"),
    ]

    @Test("each accepted form loads from a file and yields openssl's public key", arguments: acceptedFixtures)
    func loadsFromFile(file: String, publicKey: String) throws {
        let key = try SigningKey(contentsOfFile: KeyFixtures.path(file), keyId: KeyFixtures.keyId)
        #expect(key.keyId == KeyFixtures.keyId)
        let expected = try KeyFixtures.text(publicKey)
        #expect(KeyFixtures.publicKeyBody(key.publicKeyPEM) == KeyFixtures.publicKeyBody(expected))
        #expect(key.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
    }

    @Test("each accepted form loads from bytes (Data, [UInt8], ArraySlice)", arguments: acceptedFixtures)
    func loadsFromBytes(file: String, publicKey: String) throws {
        let data = try KeyFixtures.data(file)
        let expected = KeyFixtures.publicKeyBody(try KeyFixtures.text(publicKey))
        let fromData = try SigningKey(bytes: data, keyId: KeyFixtures.keyId)
        let fromArray = try SigningKey(bytes: Array(data), keyId: KeyFixtures.keyId)
        let fromSlice = try SigningKey(bytes: ([0x00] + Array(data))[1...], keyId: KeyFixtures.keyId)
        for key in [fromData, fromArray, fromSlice] {
            #expect(KeyFixtures.publicKeyBody(key.publicKeyPEM) == expected)
        }
    }

    @Test(
        "each text form loads from a string and from an environment variable",
        arguments: acceptedFixtures.filter { !$0.file.hasSuffix(".der") })
    func loadsFromStringAndEnvironment(file: String, publicKey: String) throws {
        let text = try KeyFixtures.text(file)
        let expected = KeyFixtures.publicKeyBody(try KeyFixtures.text(publicKey))
        let fromString = try SigningKey(pem: text, keyId: KeyFixtures.keyId)
        let fromEnvironment = try SigningKey(
            environmentVariable: "OFFERKIT_TEST_KEY", keyId: KeyFixtures.keyId,
            environment: ["OFFERKIT_TEST_KEY": text])
        #expect(KeyFixtures.publicKeyBody(fromString.publicKeyPEM) == expected)
        #expect(KeyFixtures.publicKeyBody(fromEnvironment.publicKeyPEM) == expected)
    }

    /// Variants of the downloaded `.p8` that people produce by copying, editing and pasting.
    static let pemVariants: [(name: String, transform: @Sendable (String) -> String)] = [
        ("unchanged", { $0 }),
        ("CRLF line endings", { $0.replacingOccurrences(of: "\n", with: "\r\n") }),
        ("no final newline", { String($0.dropLast()) }),
        // "\r\n" is one Character in Swift, so dropLast() removes the whole line break.
        ("CRLF and no final newline", { String($0.replacingOccurrences(of: "\n", with: "\r\n").dropLast()) }),
        ("leading and trailing whitespace", { "\n\n  \t" + $0 + "   \n\t\n" }),
        ("every line indented (YAML block)", { $0.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") }),
        ("trailing spaces on every line", { $0.replacingOccurrences(of: "\n", with: "  \n") }),
        ("text before and after the block", { "Bag Attributes\n    friendlyName: key\n" + $0 + "# end\n" }),
        (
            "body on one line",
            { pem in
                "-----BEGIN PRIVATE KEY-----\n\(KeyFixtures.pemBody(pem))\n-----END PRIVATE KEY-----\n"
            }
        ),
        (
            "body wrapped at 76 columns",
            { pem in
                var body = Substring(KeyFixtures.pemBody(pem))
                var lines: [Substring] = []
                while !body.isEmpty {
                    lines.append(body.prefix(76))
                    body = body.dropFirst(76)
                }
                return "-----BEGIN PRIVATE KEY-----\n" + lines.joined(separator: "\n") + "\n-----END PRIVATE KEY-----"
            }
        ),
    ]

    @Test("PKCS#8 PEM variants all load", arguments: pemVariants)
    func pemVariantsLoad(name: String, transform: @Sendable (String) -> String) throws {
        let original = try KeyFixtures.text("p256.pkcs8.pem")
        let expected = KeyFixtures.publicKeyBody(try KeyFixtures.text("p256.pub.pem"))
        let text = transform(original)
        #expect(text != original || name == "unchanged")
        let key = try SigningKey(pem: text, keyId: KeyFixtures.keyId)
        #expect(KeyFixtures.publicKeyBody(key.publicKeyPEM) == expected)
        let fromBytes = try SigningKey(bytes: Array(text.utf8), keyId: KeyFixtures.keyId)
        #expect(KeyFixtures.publicKeyBody(fromBytes.publicKeyPEM) == expected)
    }

    @Test("SEC1 PEM with CRLF and no final newline loads")
    func sec1WithCRLF() throws {
        let text = try KeyFixtures.text("p256.sec1.pem").replacingOccurrences(of: "\n", with: "\r\n")
        #expect(text.hasSuffix("-----\r\n"))
        let key = try SigningKey(pem: String(text.dropLast()), keyId: KeyFixtures.keyId)
        #expect(
            KeyFixtures.publicKeyBody(key.publicKeyPEM)
                == KeyFixtures.publicKeyBody(try KeyFixtures.text("p256.pub.pem")))
    }

    static let environmentForms: [(name: String, transform: @Sendable (String) -> String)] = [
        ("PEM with literal \\n sequences", { $0.replacingOccurrences(of: "\n", with: "\\n") }),
        (
            "PEM with literal \\n and no final newline",
            { String($0.replacingOccurrences(of: "\n", with: "\\n").dropLast(2)) }
        ),
        ("PEM with real newlines", { $0 }),
        ("base64 body alone", { KeyFixtures.pemBody($0) }),
        ("base64 body with a trailing newline", { KeyFixtures.pemBody($0) + "\n" }),
        ("base64 body, quoted export with spaces around", { "  " + KeyFixtures.pemBody($0) + "  " }),
    ]

    @Test("environment variable forms load", arguments: environmentForms)
    func loadsFromEnvironmentForms(name: String, transform: @Sendable (String) -> String) throws {
        let value = transform(try KeyFixtures.text("p256.pkcs8.pem"))
        if name.contains("literal") { #expect(value.contains("\\n") && !value.contains("\n")) }
        let key = try SigningKey(
            environmentVariable: "IAP_KEY", keyId: KeyFixtures.keyId, environment: ["IAP_KEY": value, "OTHER": "x"])
        #expect(
            KeyFixtures.publicKeyBody(key.publicKeyPEM)
                == KeyFixtures.publicKeyBody(try KeyFixtures.text("p256.pub.pem")))
    }

    @Test("the process environment is read when no dictionary is given")
    func processEnvironment() throws {
        let name = "OFFERKIT_KEYLOADING_TEST_\(UUID().uuidString.prefix(8))"
        let value = KeyFixtures.pemBody(try KeyFixtures.text("p256.pkcs8.pem"))
        setenv(name, value, 1)
        defer { unsetenv(name) }
        let key = try SigningKey(environmentVariable: name, keyId: KeyFixtures.keyId)
        #expect(
            KeyFixtures.publicKeyBody(key.publicKeyPEM)
                == KeyFixtures.publicKeyBody(try KeyFixtures.text("p256.pub.pem")))
    }

    @Test("the base64url alphabet is accepted for the bare body")
    func base64URLBody() throws {
        // Re-encode the DER in the URL alphabet without padding; pick the fixture bytes as they are.
        let der = try KeyFixtures.data("p256.pkcs8.der")
        let url = der.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let key = try SigningKey(pem: url, keyId: KeyFixtures.keyId)
        #expect(
            KeyFixtures.publicKeyBody(key.publicKeyPEM)
                == KeyFixtures.publicKeyBody(try KeyFixtures.text("p256.pub.pem")))
    }

    @Test("all forms of the P-256 fixture give one public key, JWK and thumbprint")
    func formsAgree() throws {
        let files = [
            "p256.pkcs8.pem", "p256.sec1.pem", "p256.ecparam.pem", "p256.pkcs8.der", "p256.sec1.der", "p256.base64.txt",
        ]
        let keys = try files.map { try SigningKey(contentsOfFile: KeyFixtures.path($0), keyId: KeyFixtures.keyId) }
        #expect(Set(keys.map(\.publicKeyPEM)).count == 1)
        #expect(Set(keys.map(\.publicJWK)).count == 1)
        #expect(Set(keys.map(\.jwkThumbprint)).count == 1)
        #expect(Set(keys.map(\.privateKeyPKCS8PEM)).count == 1)
    }

    @Test("the demo key loads and matches its committed public key")
    func demoKey() throws {
        let key = Demo.key
        #expect(key.keyId == Demo.keyId)
        let expected = try String(contentsOfFile: Demo.publicKeyPath, encoding: .utf8)
        #expect(KeyFixtures.publicKeyBody(key.publicKeyPEM) == KeyFixtures.publicKeyBody(expected))
        let fromString = try SigningKey(pem: Demo.privateKeyPEM, keyId: Demo.keyId)
        #expect(fromString.publicKeyPEM == key.publicKeyPEM)
    }

    @Test("privateKeyPKCS8PEM round-trips and is the PKCS#8 PEM form")
    func pkcs8RoundTrip() throws {
        let key = try SigningKey(contentsOfFile: KeyFixtures.path("p256.sec1.pem"), keyId: KeyFixtures.keyId)
        let pem = key.privateKeyPKCS8PEM
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(pem.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("-----END PRIVATE KEY-----"))
        let again = try SigningKey(pem: pem, keyId: KeyFixtures.keyId)
        #expect(again.publicKeyPEM == key.publicKeyPEM)
    }

    @Test("generate makes fresh, loadable P-256 keys")
    func generate() throws {
        let first = try SigningKey.generate(keyId: "GENERATED1")
        let second = try SigningKey.generate(keyId: "GENERATED1")
        #expect(first.keyId == "GENERATED1")
        #expect(first.publicKeyPEM != second.publicKeyPEM)
        #expect(first.jwkThumbprint != second.jwkThumbprint)
        let reloaded = try SigningKey(pem: first.privateKeyPKCS8PEM, keyId: "GENERATED1")
        #expect(reloaded.publicKeyPEM == first.publicKeyPEM)
        #expect(reloaded.jwkThumbprint == first.jwkThumbprint)
        #expect(throws: CredentialError.invalidKeyId("generated")) { try SigningKey.generate(keyId: "generated") }
    }

    // MARK: - Rejected inputs

    enum Source: Sendable {
        case string(String)
        case bytes([UInt8])
        case file(String)
        case fixtureFile(String)
    }

    struct Rejection: Sendable, CustomTestStringConvertible {
        let name: String
        let source: Source
        let expected: KeyLoadingError
        var testDescription: String { name }

        func load() throws {
            switch source {
            case .string(let text): _ = try SigningKey(pem: text, keyId: KeyFixtures.keyId)
            case .bytes(let bytes): _ = try SigningKey(bytes: bytes, keyId: KeyFixtures.keyId)
            case .file(let path): _ = try SigningKey(contentsOfFile: path, keyId: KeyFixtures.keyId)
            case .fixtureFile(let name):
                _ = try SigningKey(contentsOfFile: KeyFixtures.path(name), keyId: KeyFixtures.keyId)
            }
        }
    }

    static func fixtureText(_ name: String) -> String { (try? KeyFixtures.text(name)) ?? "" }
    static func fixtureBytes(_ name: String) -> [UInt8] { Array((try? KeyFixtures.data(name)) ?? Data()) }

    /// The P-256 PKCS#8 PEM with the base64 body replaced.
    static func pkcs8PEM(body: String) -> String {
        var lines: [String] = []
        var rest = Substring(body)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        return "-----BEGIN PRIVATE KEY-----\n" + lines.joined(separator: "\n") + "\n-----END PRIVATE KEY-----\n"
    }

    static let rejections: [Rejection] = {
        let pem = fixtureText("p256.pkcs8.pem")
        let body = KeyFixtures.pemBody(pem)
        let der = fixtureBytes("p256.pkcs8.der")
        let sec1DER = fixtureBytes("p256.sec1.der")
        let middle = body.index(body.startIndex, offsetBy: body.count / 2)
        let p384 = KeyLoadingError.unsupportedCurve("P-384 (secp384r1)")
        let k1 = KeyLoadingError.unsupportedCurve("secp256k1")
        return [
            Rejection(name: "empty string", source: .string(""), expected: .empty),
            Rejection(name: "empty bytes", source: .bytes([]), expected: .empty),
            Rejection(name: "whitespace only", source: .string("  \n\t\r\n  "), expected: .empty),
            Rejection(name: "empty file", source: .fixtureFile("empty.p8"), expected: .empty),
            Rejection(name: "random text", source: .string("This is not a key, sorry!"), expected: .notAKey),
            Rejection(name: "JSON text", source: .string(#"{"keyID": "2X9R4HXF34"}"#), expected: .notAKey),
            Rejection(name: "random bytes", source: .bytes([0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0xFF]), expected: .notAKey),
            Rejection(
                name: "PEM of an unknown kind", source: .string("-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n"),
                expected: .notAKey),
            Rejection(name: "public key PEM", source: .fixtureFile("p256.pub.pem"), expected: .publicKey),
            Rejection(name: "public key DER", source: .fixtureFile("p256.pub.der"), expected: .publicKey),
            Rejection(
                name: "public key base64 body", source: .string(KeyFixtures.pemBody(fixtureText("p256.pub.pem"))),
                expected: .publicKey),
            Rejection(name: "RSA PKCS#8 PEM", source: .fixtureFile("rsa.pkcs8.pem"), expected: .rsaKey),
            Rejection(name: "RSA PKCS#1 PEM", source: .fixtureFile("rsa.pkcs1.pem"), expected: .rsaKey),
            Rejection(name: "RSA PKCS#1 DER", source: .fixtureFile("rsa.pkcs1.der"), expected: .rsaKey),
            Rejection(name: "P-384 PKCS#8", source: .fixtureFile("p384.pkcs8.pem"), expected: p384),
            Rejection(name: "P-384 SEC1", source: .fixtureFile("p384.sec1.pem"), expected: p384),
            Rejection(name: "secp256k1 PKCS#8", source: .fixtureFile("secp256k1.pkcs8.pem"), expected: k1),
            Rejection(name: "secp256k1 SEC1", source: .fixtureFile("secp256k1.sec1.pem"), expected: k1),
            Rejection(
                name: "Ed25519", source: .fixtureFile("ed25519.pkcs8.pem"), expected: .unsupportedAlgorithm("Ed25519")),
            Rejection(
                name: "encrypted PKCS#8 PEM", source: .fixtureFile("p256.encrypted.pem"), expected: .encryptedKey),
            Rejection(
                name: "encrypted PKCS#8 DER", source: .fixtureFile("p256.encrypted.der"), expected: .encryptedKey),
            Rejection(
                name: "encrypted SEC1 PEM (Proc-Type)", source: .fixtureFile("p256.sec1-encrypted.pem"),
                expected: .encryptedKey),
            Rejection(name: "certificate PEM", source: .fixtureFile("cert.pem"), expected: .certificate),
            Rejection(name: "certificate DER", source: .fixtureFile("cert.der"), expected: .certificate),
            Rejection(name: "PKCS#12 bundle", source: .fixtureFile("bundle.p12"), expected: .pkcs12),
            Rejection(
                name: "PKCS#12 bundle as base64",
                source: .string(Data(fixtureBytes("bundle.p12")).base64EncodedString()),
                expected: .pkcs12),
            Rejection(
                name: "PEM body with '*' characters",
                source: .string(pkcs8PEM(body: body.replacingOccurrences(of: "A", with: "*"))), expected: .invalidBase64
            ),
            Rejection(
                name: "PEM body of impossible length (one extra character)",
                source: .string(pkcs8PEM(body: String(body[..<middle]) + "Q" + String(body[middle...]))),
                expected: .invalidBase64),
            Rejection(
                name: "PEM body with padding in the middle", source: .string(pkcs8PEM(body: "MIG=" + body)),
                expected: .invalidBase64),
            Rejection(
                name: "bare body of impossible length (three characters short)",
                source: .string(String(body.dropLast(3))),
                expected: .invalidBase64),
            Rejection(
                name: "PEM body cut in half", source: .string(pkcs8PEM(body: String(body[..<middle]))),
                expected: .truncated),
            Rejection(
                name: "PEM missing its END line", source: .string(String(pem.prefix(pem.count / 2))),
                expected: .truncated),
            Rejection(
                name: "PEM missing its END line (whole body)",
                source: .string(pem.replacingOccurrences(of: "-----END PRIVATE KEY-----\n", with: "")),
                expected: .truncated),
            Rejection(name: "bare body cut in half", source: .string(String(body[..<middle])), expected: .truncated),
            Rejection(
                name: "truncated PKCS#8 DER", source: .bytes(Array(der.prefix(der.count - 10))), expected: .truncated),
            Rejection(
                name: "PKCS#8 DER cut in half", source: .bytes(Array(der.prefix(der.count / 2))), expected: .truncated),
            Rejection(
                name: "truncated SEC1 DER", source: .bytes(Array(sec1DER.prefix(sec1DER.count - 1))),
                expected: .truncated),
            Rejection(
                name: "PEM with an empty body",
                source: .string("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n"), expected: .empty),
            Rejection(
                name: "PEM whose END line names another label",
                source: .string(pem.replacingOccurrences(of: "END PRIVATE KEY", with: "END EC PRIVATE KEY")),
                expected: .truncated),
            Rejection(
                name: "PEM cut, then the whole key after it (a BEGIN line inside the block)",
                source: .string(String(pem.prefix(pem.count / 2)) + "\n" + pem), expected: .truncated),
            Rejection(
                name: "PEM flattened to one line (echo $KEY)",
                source: .string(pem.split(separator: "\n").joined(separator: " ")), expected: .notAKey),
        ]
    }()

    @Test("each wrong input maps to its own error", arguments: rejections)
    func rejects(_ rejection: Rejection) {
        expectKeyLoadingError(rejection.expected) { try rejection.load() }
    }

    @Test("errors for curves and algorithms name what was found")
    func errorsNameTheCurve() throws {
        let p384 = expectKeyLoadingError(.unsupportedCurve("P-384 (secp384r1)")) {
            _ = try SigningKey(contentsOfFile: KeyFixtures.path("p384.pkcs8.pem"), keyId: KeyFixtures.keyId)
        }
        #expect(p384?.localizedDescription.contains("P-384") == true)
        let k1 = expectKeyLoadingError(.unsupportedCurve("secp256k1")) {
            _ = try SigningKey(contentsOfFile: KeyFixtures.path("secp256k1.pkcs8.pem"), keyId: KeyFixtures.keyId)
        }
        #expect(k1?.localizedDescription.contains("secp256k1") == true)
        let ed = expectKeyLoadingError(.unsupportedAlgorithm("Ed25519")) {
            _ = try SigningKey(contentsOfFile: KeyFixtures.path("ed25519.pkcs8.pem"), keyId: KeyFixtures.keyId)
        }
        #expect(ed?.localizedDescription.contains("Ed25519") == true)
        let encrypted = expectKeyLoadingError(.encryptedKey) {
            _ = try SigningKey(contentsOfFile: KeyFixtures.path("p256.encrypted.pem"), keyId: KeyFixtures.keyId)
        }
        #expect(encrypted?.localizedDescription.contains("openssl") == true)
        let publicKey = expectKeyLoadingError(.publicKey) {
            _ = try SigningKey(contentsOfFile: KeyFixtures.path("p256.pub.pem"), keyId: KeyFixtures.keyId)
        }
        #expect(publicKey?.localizedDescription.contains("private key") == true)
    }

    @Test("a missing file names the path and the reason")
    func missingFile() {
        let path = KeyFixtures.path("SubscriptionKey_NOSUCHKEY1.p8")
        let error = expectKeyLoadingError(
            .unreadableFile(path: path, reason: "no such file"), mentioning: [path, "no such file"]
        ) {
            _ = try SigningKey(contentsOfFile: path, keyId: KeyFixtures.keyId)
        }
        #expect(error?.localizedDescription.contains("key file") == true)
    }

    @Test("a directory names the path and the reason")
    func directory() {
        let path = KeyFixtures.directory.path
        expectKeyLoadingError(
            .unreadableFile(path: path, reason: "it is a directory"), mentioning: [path, "directory"]
        ) {
            _ = try SigningKey(contentsOfFile: path, keyId: KeyFixtures.keyId)
        }
    }

    @Test("an unset or empty environment variable is named", arguments: [nil, "", "   \n"] as [String?])
    func unsetEnvironmentVariable(value: String?) {
        let environment = value.map { ["OFFERKIT_KEY": $0] } ?? ["SOMETHING_ELSE": "x"]
        let error = expectKeyLoadingError(
            .environmentVariableNotSet("OFFERKIT_KEY"), mentioning: ["OFFERKIT_KEY", "PEM"]
        ) {
            _ = try SigningKey(environmentVariable: "OFFERKIT_KEY", keyId: KeyFixtures.keyId, environment: environment)
        }
        #expect(error?.localizedDescription.contains("not set") == true)
    }

    @Test("an environment variable holding something else maps to the content's error")
    func environmentVariableWithWrongContent() {
        expectKeyLoadingError(.publicKey) {
            _ = try SigningKey(
                environmentVariable: "K", keyId: KeyFixtures.keyId,
                environment: ["K": Self.fixtureText("p256.pub.pem").replacingOccurrences(of: "\n", with: "\\n")])
        }
        expectKeyLoadingError(.rsaKey) {
            _ = try SigningKey(
                environmentVariable: "K", keyId: KeyFixtures.keyId,
                environment: ["K": Self.fixtureText("rsa.pkcs1.pem")])
        }
    }

    @Test("the key ID is checked before the key")
    func keyIdCheckedFirst() {
        let error = #expect(throws: CredentialError.self) {
            _ = try SigningKey(pem: "", keyId: "bad")
        }
        #expect(error == .invalidKeyId("bad"))
        #expect(error?.field == "keyId")
    }

    // MARK: - JWK thumbprint (RFC 7638)

    @Test("the JWK thumbprint matches the one computed with openssl and python (thumbprint.txt)")
    func thumbprintMatchesFixture() throws {
        let expected = try KeyFixtures.text("thumbprint.txt").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(expected.count == 43)
        for file in ["p256.pkcs8.pem", "p256.sec1.der", "p256.base64.txt"] {
            let key = try SigningKey(contentsOfFile: KeyFixtures.path(file), keyId: KeyFixtures.keyId)
            #expect(key.jwkThumbprint == expected)
            #expect(String(describing: key).contains(expected))
        }
    }

    @Test("the public JWK has RFC 7638 member order and no private member")
    func publicJWKShape() throws {
        let key = try SigningKey(contentsOfFile: KeyFixtures.path("p256.pkcs8.pem"), keyId: KeyFixtures.keyId)
        let jwk = key.publicJWK
        #expect(jwk.hasPrefix(#"{"crv":"P-256","kty":"EC","x":""#))
        #expect(!jwk.contains(#""d""#))
        #expect(!jwk.contains(" ") && !jwk.contains("="))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(jwk.utf8)) as? [String: String])
        #expect(object.keys.sorted() == ["crv", "kty", "x", "y"])
        #expect(object["x"]?.count == 43 && object["y"]?.count == 43)
    }

    @Test(
        "thumbprints match an independent python computation from the public key DER",
        .enabled("python3 not on PATH") { await KeyLoadingTests.hashlibPythonAvailable || ExternalTool.isCI })
    func thumbprintMatchesPython() async throws {
        let keys = [Demo.key, try SigningKey.generate(keyId: "GENERATED1")]
        for key in keys {
            let der = try #require(Data(base64Encoded: KeyFixtures.pemBody(key.publicKeyPEM)))
            let script = """
                import sys, hashlib, base64, json
                point = sys.stdin.buffer.read()[-65:]
                assert point[0] == 4
                b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
                jwk = json.dumps({"crv": "P-256", "kty": "EC", "x": b64(point[1:33]), "y": b64(point[33:])},
                                 separators=(",", ":"), sort_keys=True)
                print(b64(hashlib.sha256(jwk.encode()).digest()))
                """
            let result = try await ExternalTool.run(ExternalTool.python, ["-c", script], stdin: der)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == key.jwkThumbprint)
        }
    }

    static var hashlibPythonAvailable: Bool {
        get async { await ExternalProcess.succeeds(ExternalTool.python, ["-c", "import hashlib, base64, json"]) }
    }
}
