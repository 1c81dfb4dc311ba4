import ArgumentParser
import Foundation
import OfferAppleVerification
import OfferJSON
import OfferKitSigningCLI
import X509

/// `offerkit verify-apple`: verifies a JWS the App Store signed and prints its payload.
struct VerifyAppleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-apple",
        abstract: "Verify a JWS the App Store signed (transaction, renewal info, notification, real-time request).",
        discussion: """
            The x5c chain must verify to Apple Root CA - G3 (built in) or to the --root-certificate roots, at the \
            payload's signedDate, with Apple's extension OIDs on the intermediate and the leaf and RFC 5280 key \
            usage (keyCertSign on the intermediate and root, digitalSignature on the leaf); then the ES256 \
            signature (high-S accepted, as the App Store signs), then the payload's bundleId, environment and, in \
            production, appAppleId, as Apple's libraries check them. A header crit or b64 member and a part that \
            is not canonical base64url (= padding) are refused. A notification's signedTransactionInfo and signedRenewalInfo are verified too. \
            Without --kind the kind is read from the payload's fields. Prints the payload with Apple's field \
            names. Exits 1 when verification fails, 2 for missing settings, 4 for an input that cannot be read \
            (larger than 64 KiB, not UTF-8, a root that is not a certificate), 5 for I/O.
            """)

    @Option(name: .customLong("jws-file"), help: "A file holding the compact JWS, or '-' for stdin.")
    var jwsFile: String

    @Option(help: "What the JWS holds: transaction, renewal-info, notification or realtime-request.")
    var kind: AppleSignedDataKind?

    @Option(
        name: .customLong("root-certificate"),
        help: "A trusted root certificate (PEM or DER file), instead of Apple Root CA - G3; repeat for several.")
    var rootCertificates: [String] = []

    @Option(name: .customLong("bundle-id"), help: "The app's bundle ID (needed for transactions and notifications).")
    var bundleId: String?

    @Option(
        help: """
            The environment the payload must name, as Apple names it: Production, Sandbox, Xcode or LocalTesting \
            (in any case).
            """)
    var environment: AppleEnvironment = .production

    @Option(name: .customLong("app-apple-id"), help: "The app's App Apple ID (needed in production).")
    var appAppleId: Int64?

    @OptionGroup var output: OutputOptions

    func run() async throws {
        if jwsFile == "-", rootCertificates.contains("-") {
            throw CLIError.usage("--jws-file - and --root-certificate - would both read stdin; give one of them a file")
        }
        let roots = try readRoots()
        let verifier: AppleSignedDataVerifier
        do throws(AppleVerificationError) {
            verifier = try AppleSignedDataVerifier(
                rootCertificates: roots, bundleId: bundleId, environment: environment,
                appAppleId: appAppleId)
        } catch .appAppleIdRequired {
            throw CLIError.usage("--environment Production needs --app-apple-id (the app's App Apple ID)")
        } catch {
            throw CLIError.usage(error.localizedDescription)
        }
        let text = try readJWS()
        let verified: AppleVerifiedPayload
        do throws(AppleVerificationError) {
            let kind: AppleSignedDataKind
            if let given = self.kind { kind = given } else { kind = try Self.inferredKind(of: text) }
            verified = try await verifier.verify(text, as: kind)
        } catch .bundleIdRequired(let kind) {
            throw CLIError.usage("a \(kind.rawValue) names its app by bundle ID: give --bundle-id")
        } catch {
            if output.format == .json {
                var writer = JSONWriter()
                writer.beginObject()
                writer.key("valid")
                writer.bool(false)
                writer.member("reason", error.localizedDescription)
                writer.endObject()
                Output.line(String(decoding: writer.bytes, as: UTF8.self))
            }
            throw CLIError.verificationFailed(error.localizedDescription)
        }
        try print(verified)
    }

    private func readRoots() throws -> [Certificate] {
        guard !rootCertificates.isEmpty else { return [AppleRootCertificates.appleRootCAG3] }
        var roots: [Certificate] = []
        for path in rootCertificates {
            let bytes = try InputFile.read(path, limit: InputFile.tokenLimit, what: "a root certificate")
            let name = path == "-" ? "stdin" : path
            do {
                if let pem = String(validating: bytes, as: UTF8.self), pem.contains("-----BEGIN") {
                    roots += try AppleRootCertificates.certificates(pem: pem)
                } else {
                    roots.append(try AppleRootCertificates.certificate(der: bytes))
                }
            } catch {
                throw CLIError.invalidInput("--root-certificate \(name): \(error.localizedDescription)")
            }
        }
        return roots
    }

    private func readJWS() throws -> String {
        let bytes = try InputFile.read(jwsFile, limit: AppleCompactJWS.maximumBytes, what: "an Apple-signed JWS")
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError.invalidInput(
                "\(jwsFile == "-" ? "stdin" : jwsFile) is not UTF-8 text; expected a compact JWS")
        }
        // A trailing newline (a file saved by an editor, `echo`) is not part of the JWS.
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The kind a payload's fields show: Apple's payloads each have fields only they carry.
    static func inferredKind(of text: String) throws(AppleVerificationError) -> AppleSignedDataKind {
        let payload = try AppleCompactJWS(text).payload
        if payload["notificationType"] != nil { return .notification }
        if payload["userLocale"] != nil, payload["requestIdentifier"] != nil { return .realtimeRequest }
        if payload["transactionId"] != nil { return .transaction }
        if payload["autoRenewStatus"] != nil || payload["autoRenewProductId"] != nil { return .renewalInfo }
        throw .payloadUnreadable(
            type: "payload Apple signs",
            reason: "its fields match no kind (notificationType, userLocale, transactionId, autoRenewStatus); "
                + "give --kind")
    }

    private func print(_ verified: AppleVerifiedPayload) throws {
        let nested: [(name: String, bytes: [UInt8]?)] = [
            ("transactionInfo", verified.transactionInfoBytes), ("renewalInfo", verified.renewalInfoBytes),
        ]
        switch output.format {
        case .json:
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("valid")
            writer.bool(true)
            writer.member("kind", verified.kind.rawValue)
            writer.member("type", verified.kind.payloadTypeName)
            writer.key("payload")
            writer.raw(try Self.compact(verified.payloadBytes))
            for (name, bytes) in nested {
                guard let bytes else { continue }
                writer.dynamicKey(name)
                writer.raw(try Self.compact(bytes))
            }
            writer.endObject()
            Output.line(String(decoding: writer.bytes, as: UTF8.self))
        case .text:
            Output.line("verified: \(verified.kind.rawValue) (\(verified.kind.payloadTypeName))")
            Output.line("payload: \(String(decoding: try Self.compact(verified.payloadBytes), as: UTF8.self))")
            let fields = ["transactionInfo": "data.signedTransactionInfo", "renewalInfo": "data.signedRenewalInfo"]
            for (name, bytes) in nested {
                guard let bytes else { continue }
                Output.line("\(fields[name] ?? name): \(String(decoding: try Self.compact(bytes), as: UTF8.self))")
            }
        }
    }

    /// The payload as compact JSON (it was parsed before it verified, so it is JSON).
    static func compact(_ bytes: [UInt8]) throws -> [UInt8] {
        do {
            return try JSONValue.parse(bytes).serialized()
        } catch {
            throw CLIError.invalidInput("the payload is not JSON: \(error.message)")
        }
    }
}

extension AppleSignedDataKind: ExpressibleByArgument {}

/// Apple's names in any case; `local-testing`, the spelling before Apple's was used, with a note.
extension AppleEnvironment: ExpressibleByArgument {
    public init?(argument: String) {
        if EnumeratedSpelling.equalIgnoringCase(argument, "local-testing") {
            Deprecation.note("note: 'local-testing' is deprecated; the name is now 'LocalTesting', Apple's")
            self = .localTesting
            return
        }
        self.init(anyCase: argument)
    }
}
