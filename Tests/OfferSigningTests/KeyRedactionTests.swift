import Foundation
import OfferSigning
import Testing

/// The private material of one key, as every 16-character window of its textual encodings.
struct PrivateKeyWindows {
    static let width = 16

    /// Case-sensitive windows: the base64 bodies and the base64 forms of the private scalar.
    let base64Windows: Set<String>
    /// Lower-case windows of the DER hex and the scalar hex.
    let hexWindows: Set<String>
    /// The raw private scalar, hex.
    let scalarHex: String
    /// Windows of the private scalar alone (hex lower-case, base64, base64url). Public outputs
    /// are checked against these only: the DER and PEM bodies also embed the public key.
    let scalarWindows: Set<String>

    /// - Parameters:
    ///   - pkcs8PEM: the key as PKCS#8 PEM.
    ///   - otherBodies: other base64 bodies of the same key (SEC1 PEM, …).
    init(pkcs8PEM: String, otherBodies: [String] = []) throws {
        let body = KeyFixtures.pemBody(pkcs8PEM)
        let der = try #require(Data(base64Encoded: body)).map { $0 }
        // ECPrivateKey inside the PKCS#8 OCTET STRING: INTEGER 1, OCTET STRING (32) = the scalar.
        let marker: [UInt8] = [0x02, 0x01, 0x01, 0x04, 0x20]
        let start = try #require(
            (0...(der.count - marker.count)).first { Array(der[$0..<($0 + marker.count)]) == marker })
        let scalar = Array(der[(start + marker.count)..<(start + marker.count + 32)])
        scalarHex = Self.hex(scalar)
        let scalarBase64 = Data(scalar).base64EncodedString()
        let scalarBase64URL = scalarBase64.replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        base64Windows = Self.windows(of: [body, scalarBase64, scalarBase64URL] + otherBodies)
        hexWindows = Self.windows(of: [Self.hex(der), scalarHex])
        scalarWindows = Self.windows(of: [scalarHex, scalarBase64, scalarBase64URL])
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func windows(of texts: [String]) -> Set<String> {
        var result: Set<String> = []
        for text in texts {
            let characters = Array(text)
            guard characters.count >= width else { continue }
            for start in 0...(characters.count - width) { result.insert(String(characters[start..<(start + width)])) }
        }
        return result
    }

    /// The first private window found in `output`, if any. Hex is also looked for case-insensitively
    /// and with separators (`e9:5b:…`) removed; base64 also with whitespace removed.
    func leak(in output: String) -> String? {
        let compact = output.filter { !$0.isWhitespace }
        let hexCompact = output.lowercased().filter { !$0.isWhitespace && $0 != ":" }
        for haystack in [output, compact] {
            for window in Self.windows(of: [haystack]) where base64Windows.contains(window) { return window }
        }
        for window in Self.windows(of: [hexCompact]) where hexWindows.contains(window) { return window }
        return nil
    }
}

/// Every way a value can end up in a log line.
func renderings(_ value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    var dumpedInArray = ""
    dump([value], to: &dumpedInArray)
    var printed = ""
    print(value, to: &printed)
    var debugPrinted = ""
    debugPrint(value, to: &debugPrinted)
    var result = [
        String(describing: value), String(reflecting: value), "\(value)", dumped, dumpedInArray, printed, debugPrinted,
    ]
    if let error = value as? any Error {
        result.append(error.localizedDescription)
        result.append(String(describing: error as NSError))
        result.append((error as NSError).localizedDescription)
    }
    return result
}

extension KeyLoadingTests {
    @Suite("Key redaction")
    struct Redaction {
        static let fixturePEM = (try? KeyFixtures.text("p256.pkcs8.pem")) ?? ""

        static func fixtureSecrets() throws -> PrivateKeyWindows {
            try PrivateKeyWindows(
                pkcs8PEM: fixturePEM,
                otherBodies: [
                    KeyFixtures.pemBody(try KeyFixtures.text("p256.sec1.pem")), try KeyFixtures.text("p256.base64.txt"),
                ])
        }

        static func demoSecrets() throws -> PrivateKeyWindows { try PrivateKeyWindows(pkcs8PEM: Demo.privateKeyPEM) }

        func expectNoLeak(
            _ secrets: PrivateKeyWindows, in value: Any, _ label: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            for output in renderings(value) {
                let leaked = secrets.leak(in: output)
                #expect(
                    leaked == nil, "\(label) shows private key material \(leaked ?? ""): \(output)",
                    sourceLocation: sourceLocation)
            }
        }

        @Test("the windows really find the key (self-test of the leak detector)")
        func detectorSelfTest() throws {
            let secrets = try Self.fixtureSecrets()
            let scalarFromOpenSSL = try KeyFixtures.text("p256.scalar.hex").trimmingCharacters(
                in: .whitespacesAndNewlines)
            #expect(secrets.scalarHex == scalarFromOpenSSL)
            #expect(secrets.leak(in: Self.fixturePEM) != nil)
            #expect(secrets.leak(in: "x " + scalarFromOpenSSL.uppercased().dropFirst(10).prefix(16) + " y") != nil)
            let colonHex = stride(from: 0, to: 40, by: 2).map { index -> String in
                let start = scalarFromOpenSSL.index(scalarFromOpenSSL.startIndex, offsetBy: index)
                return String(scalarFromOpenSSL[start..<scalarFromOpenSSL.index(start, offsetBy: 2)])
            }.joined(separator: ":")
            #expect(secrets.leak(in: "priv:\n    " + colonHex) != nil)
            #expect(secrets.leak(in: String(reflecting: try KeyFixtures.data("p256.pkcs8.der") as NSData)) != nil)
            #expect(secrets.leak(in: "SigningKey(keyID: TESTKEY001)") == nil)
            let demo = try Self.demoSecrets()
            #expect(demo.leak(in: Demo.privateKeyPEM) != nil)
            #expect(demo.leak(in: Demo.key.privateKeyPKCS8PEM) != nil)
        }

        @Test("SigningKey's description, debug description, dump and mirror show no private material")
        func signingKeyRenderings() throws {
            let fixtureKey = try SigningKey(
                contentsOfFile: KeyFixtures.path("p256.pkcs8.pem"), keyId: KeyFixtures.keyId)
            let cases: [(SigningKey, PrivateKeyWindows, String)] = [
                (Demo.key, try Self.demoSecrets(), "demo key"),
                (fixtureKey, try Self.fixtureSecrets(), "fixture key"),
            ]
            for (key, secrets, label) in cases {
                expectNoLeak(secrets, in: key, label)
                expectNoLeak(secrets, in: Optional(key) as Any, "optional \(label)")
                for child in Mirror(reflecting: key).children {
                    expectNoLeak(secrets, in: child.value, "mirror child \(child.label ?? "?") of \(label)")
                }
                #expect(String(describing: key).contains(key.keyId))
                #expect(String(describing: key).contains(key.jwkThumbprint))
                // Public outputs are public, but must not carry the private scalar either.
                for output in [key.publicKeyPEM, key.publicJWK, key.jwkThumbprint] {
                    let compact = output.filter { !$0.isWhitespace }
                    let windows = PrivateKeyWindows.windows(of: [compact, compact.lowercased()])
                    #expect(
                        windows.isDisjoint(with: secrets.scalarWindows),
                        "\(label) public output carries the private scalar")
                }
            }
        }

        @Test("signers show no private material")
        func signerRenderings() throws {
            let secrets = try Self.demoSecrets()
            expectNoLeak(secrets, in: try Demo.signer(), "OfferSigner")
            let connect = try ConnectAPITokenSigner(key: Demo.key, issuer: .team(issuerId: Demo.issuerId))
            expectNoLeak(secrets, in: connect, "ConnectAPITokenSigner")
        }

        @Test("no loading error echoes the fixture key it was given", arguments: KeyLoadingTests.rejections)
        func rejectionErrors(_ rejection: KeyLoadingTests.Rejection) throws {
            let secrets = try Self.fixtureSecrets()
            do {
                try rejection.load()
                Issue.record("\(rejection.name) loaded")
            } catch {
                expectNoLeak(secrets, in: error, rejection.name)
            }
        }

        /// Key text pasted into the wrong place; shown by name only in test output.
        struct MisplacedKey: Sendable, CustomTestStringConvertible {
            let name: String
            let text: String
            var testDescription: String { name }
        }

        static let misplacedKeyTexts: [MisplacedKey] = {
            let sec1 = (try? KeyFixtures.text("p256.sec1.pem")) ?? ""
            let body = KeyFixtures.pemBody(fixturePEM)
            return [
                MisplacedKey(name: "PKCS#8 PEM", text: fixturePEM),
                MisplacedKey(name: "SEC1 PEM", text: sec1),
                MisplacedKey(
                    name: "PEM with literal \\n", text: fixturePEM.replacingOccurrences(of: "\n", with: "\\n")),
                MisplacedKey(name: "base64 body", text: body),
                MisplacedKey(name: "half the base64 body", text: String(body.prefix(body.count / 2 + 1))),
                MisplacedKey(name: "SEC1 base64 body", text: KeyFixtures.pemBody(sec1)),
            ]
        }()

        @Test("a key passed as keyID, issuerID or bundleID is not echoed", arguments: misplacedKeyTexts)
        func keyTextAsIdentifier(_ misplaced: MisplacedKey) throws {
            let (name, text) = (misplaced.name, misplaced.text)
            let secrets = try Self.fixtureSecrets()
            let validKey = try SigningKey(contentsOfFile: KeyFixtures.path("p256.pkcs8.pem"), keyId: KeyFixtures.keyId)

            let keyIdError = #expect(throws: CredentialError.self) {
                _ = try SigningKey(pem: KeyFixtures.keyId, keyId: text)
            }
            #expect(keyIdError?.field == "keyId")
            let generateError = #expect(throws: CredentialError.self) { _ = try SigningKey.generate(keyId: text) }
            let issuerError = #expect(throws: CredentialError.self) {
                _ = try OfferSigner(key: validKey, issuerId: text, bundleId: Demo.bundleId)
            }
            #expect(issuerError?.field == "issuerId")
            let bundleError = #expect(throws: CredentialError.self) {
                _ = try OfferSigner(key: validKey, issuerId: Demo.issuerId, bundleId: text)
            }
            #expect(bundleError?.field == "bundleId")
            let connectError = #expect(throws: CredentialError.self) {
                _ = try ConnectAPITokenSigner(key: validKey, issuer: .team(issuerId: text))
            }
            #expect(connectError?.field == "issuerId")

            for (label, error) in [
                ("keyId", keyIdError), ("generate keyId", generateError), ("issuerId", issuerError),
                ("bundleId", bundleError), ("team issuerId", connectError),
            ] {
                let error = try #require(error, "\(label)")
                expectNoLeak(secrets, in: error, "\(name) as \(label)")
                // And no 16-character run of the text itself, whatever its form.
                let message = error.localizedDescription
                let leaked = PrivateKeyWindows.windows(of: [message]).intersection(
                    PrivateKeyWindows.windows(of: [text]))
                #expect(leaked.isEmpty, "\(name) as \(label): message echoes \(leaked.first ?? "")")
                #expect(message.contains(error.field))
            }
        }

        @Test("a key passed as a file path or variable name is not echoed", arguments: misplacedKeyTexts)
        func keyTextAsPathOrVariableName(_ misplaced: MisplacedKey) throws {
            let (name, text) = (misplaced.name, misplaced.text)
            let secrets = try Self.fixtureSecrets()
            let fileError = #expect(throws: KeyLoadingError.self) {
                _ = try SigningKey(contentsOfFile: text, keyId: KeyFixtures.keyId)
            }
            let variableError = #expect(throws: KeyLoadingError.self) {
                _ = try SigningKey(environmentVariable: text, keyId: KeyFixtures.keyId, environment: [:])
            }
            for (label, error) in [("path", fileError), ("variable name", variableError)] {
                let error = try #require(error, "\(label)")
                expectNoLeak(secrets, in: error, "\(name) as \(label)")
                let message = error.localizedDescription
                let leaked = PrivateKeyWindows.windows(of: [message]).intersection(
                    PrivateKeyWindows.windows(of: [text]))
                #expect(leaked.isEmpty, "\(name) as \(label): message echoes \(leaked.first ?? "")")
            }
        }

        @Test("ordinary paths and variable names are still shown in full")
        func ordinaryNamesShown() {
            let path = "/home/runner/work/offers/offers/secrets/SubscriptionKey_2X9R4HXF34"
            #expect(throws: KeyLoadingError.unreadableFile(path: path, reason: "no such file")) {
                _ = try SigningKey(contentsOfFile: path, keyId: KeyFixtures.keyId)
            }
            #expect(throws: KeyLoadingError.environmentVariableNotSet("APP_STORE_IAP_PRIVATE_KEY")) {
                _ = try SigningKey(
                    environmentVariable: "APP_STORE_IAP_PRIVATE_KEY", keyId: KeyFixtures.keyId, environment: [:])
            }
            let longBundleId = String(repeating: "a", count: 300)
            #expect(throws: CredentialError.invalidBundleId(longBundleId)) {
                _ = try OfferSigner(key: Demo.key, issuerId: Demo.issuerId, bundleId: longBundleId)
            }
        }
    }
}
