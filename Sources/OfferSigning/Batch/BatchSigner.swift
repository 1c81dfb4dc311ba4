import Foundation
import OfferJSON

/// Signs JSON Lines requests: one request object in, one result object out.
///
/// Each input line is an object with a `type` (a ``SigningOperation`` name) and that type's fields
/// (the request models' names):
///
/// | `type` | fields | result fields |
/// |---|---|---|
/// | `promotional-offer` | `productId`, `offerIdentifier`, `transactionId`?, `nonce`?, `issuedAt`? | `jws`, `keyId`, `nonce`, `issuedAt` |
/// | `legacy-promotional-offer` | `productId`, `offerIdentifier`, `appAccountToken`?, `nonce`?, `timestamp`? | `keyId`, `nonce`, `timestamp`, `signature`, `productId`, `offerIdentifier`, `appAccountToken` |
/// | `introductory-offer-eligibility` | `productId`, `allowIntroductoryOffer`, `transactionId`, `nonce`?, `issuedAt`? | `jws`, `keyId`, `nonce`, `issuedAt` |
/// | `advanced-commerce` | `request` (the request object), `nonce`?, `issuedAt`? | `jws`, `keyId`, `nonce`, `issuedAt` |
/// | `server-api-token` | `lifetime`? (seconds, 1–3600, default 300) | `token`, `issuedAt`, `expiresAt` |
/// | `connect-api-token` | `lifetime`? (seconds, 1–1200, default 900), `scope`? (array of strings), `individual`? (boolean) | `token`, `issuedAt`, `expiresAt` |
///
/// `issuedAt` is in whole seconds, `timestamp` in milliseconds. A `connect-api-token` is signed with
/// the batch's key: for a team key its `iss` is the batch's issuer ID; with `"individual": true` it
/// carries `sub` = `user` instead (an individual API key).
///
/// Deprecated spellings are still accepted as input: the types `promotional-offer-v1`,
/// `intro-eligibility` and `advanced-commerce-api` (see ``SigningOperation/deprecatedSpellings``),
/// and the fields `iat` (for `issuedAt`) and `offerId` (for `offerIdentifier`). Results always use
/// the current names; ``Result/deprecatedSpellings`` lists what a line used, for a note.
///
/// An optional `id` (string or integer) is echoed back. A line that cannot be signed gives an
/// object with `error` {`code`, `field`?, `message`} instead; it never stops the batch.
/// The processor is an immutable `Sendable` value: call it from as many threads as you like.
public struct BatchSigner: Sendable {
    /// The request types a line may name: every ``SigningOperation`` name (deprecated spellings are
    /// accepted too, and not listed).
    public static let types = SigningOperation.allCases.map(\.rawValue)

    /// Deprecated field names still accepted, with the name that replaces each.
    public static let deprecatedFields = ["iat": "issuedAt", "offerId": "offerIdentifier"]

    /// The note for a deprecated spelling a line used (a type or a field name), or `nil` for a
    /// current name.
    public static func deprecationNote(for spelling: String) -> String? {
        if let note = SigningOperation.deprecationNote(for: spelling) { return note }
        guard let current = deprecatedFields[spelling] else { return nil }
        return "note: the field '\(spelling)' is deprecated; the name is now '\(current)'"
    }

    /// Error codes in result lines.
    public enum ErrorCode: String, Sendable, CaseIterable {
        case invalidJSON = "invalid-json"
        case unknownType = "unknown-type"
        case invalidInput = "invalid-input"
        case signingFailed = "signing-failed"
        case lineTooLong = "line-too-long"
    }

    /// The longest line processed: 4 MiB. A longer line gets a `line-too-long` error of its own.
    public static let maximumLineBytes = 4 << 20

    public let signer: OfferSigner
    /// Checks a promotional offer (either signature) before it is signed: returns why it may not be
    /// signed (its line fails with `invalid-input` at `offerIdentifier`), or `nil`. Called on the
    /// batch's worker threads. The `offerkit batch --ledger` check of the offers a ledger knows.
    public let offerCheck: (@Sendable (_ productId: String, _ offerIdentifier: String) -> String?)?

    public init(
        signer: OfferSigner, offerCheck: (@Sendable (_ productId: String, _ offerIdentifier: String) -> String?)? = nil
    ) {
        self.signer = signer
        self.offerCheck = offerCheck
    }

    /// Throws the line's failure when ``offerCheck`` refuses the offer.
    private func check(productId: String, offerIdentifier: String) throws(LineFailure) {
        guard let problem = offerCheck?(productId, offerIdentifier) else { return }
        throw LineFailure(code: .invalidInput, field: "offerIdentifier", message: problem)
    }

    /// The outcome of one line.
    public struct Result: Sendable {
        /// The result object, compact JSON without a newline.
        public let json: [UInt8]
        /// Whether the line was signed (`false`: the object carries `error`).
        public let succeeded: Bool
        /// The deprecated type or field names the line used (see ``deprecationNote(for:)``).
        public let deprecatedSpellings: [String]

        init(json: [UInt8], succeeded: Bool, deprecatedSpellings: [String] = []) {
            self.json = json
            self.succeeded = succeeded
            self.deprecatedSpellings = deprecatedSpellings
        }
    }

    /// Processes one line (without its newline).
    /// - Parameters:
    ///   - line: the line's bytes: one JSON object naming its `type`.
    ///   - lineNumber: 1-based, written into the result as `line`.
    public func process<Bytes: Collection<UInt8>>(line: Bytes, lineNumber: Int) -> Result {
        let count = line.count
        guard count <= Self.maximumLineBytes else { return Self.tooLong(lineNumber: lineNumber, byteCount: count) }
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.member("line", lineNumber)
        let document: JSONValue
        do {
            document = try JSONValue.parse(Array(line))
        } catch {
            writeError(.invalidJSON, field: nil, message: "the line is not valid JSON: \(error.message)", into: &writer)
            writer.endObject()
            return Result(json: writer.bytes, succeeded: false)
        }
        if let id = document["id"] {
            switch id {
            case .string(let text): writer.member("id", text)
            case .number(let text): if let number = Int64(text) { writer.member("id", number) }
            default: break
            }
        }
        var succeeded = false
        var deprecated: [String] = []
        do {
            try sign(document, into: &writer, deprecated: &deprecated)
            succeeded = true
        } catch let failure as LineFailure {
            writeError(failure.code, field: failure.field, message: failure.message, into: &writer)
        } catch {
            let field = (error as? RequestValidationError)?.field ?? (error as? RequestDecodingError)?.path
            let code: ErrorCode = error is SigningError ? .signingFailed : .invalidInput
            writeError(code, field: field, message: error.localizedDescription, into: &writer)
        }
        writer.endObject()
        return Result(json: writer.bytes, succeeded: succeeded, deprecatedSpellings: deprecated)
    }

    /// The result for a line of `byteCount` bytes, more than ``maximumLineBytes``: a reader that
    /// stops keeping a line at that size reports it with this.
    public static func tooLong(lineNumber: Int, byteCount: Int) -> Result {
        var writer = JSONWriter(capacity: 192)
        writer.beginObject()
        writer.member("line", lineNumber)
        writer.key("error")
        writer.beginObject()
        writer.member("code", ErrorCode.lineTooLong.rawValue)
        writer.member(
            "message",
            "the line has \(byteCount) bytes; a line holds at most \(maximumLineBytes) bytes "
                + "(\(BoundedInput.describe(maximumLineBytes)))")
        writer.endObject()
        writer.endObject()
        return Result(json: writer.bytes, succeeded: false)
    }

    private struct LineFailure: Error {
        let code: ErrorCode
        let field: String?
        let message: String
    }

    private func writeError(_ code: ErrorCode, field: String?, message: String, into writer: inout JSONWriter) {
        writer.key("error")
        writer.beginObject()
        writer.member("code", code.rawValue)
        writer.member("field", field)
        writer.member("message", message)
        writer.endObject()
    }

    private func sign(_ document: JSONValue, into writer: inout JSONWriter, deprecated: inout [String]) throws {
        guard case .object = document else {
            throw LineFailure(code: .invalidJSON, field: nil, message: "the line must be a JSON object")
        }
        var fields = Fields(document)
        let type = try fields.requiredString("type")
        guard let (operation, deprecatedType) = SigningOperation.named(type) else {
            throw LineFailure(
                code: .unknownType, field: "type",
                message: "type \"\(type)\" is unknown: expected one of \(Self.types.joined(separator: ", "))")
        }
        if deprecatedType { deprecated.append(type) }
        defer { deprecated += fields.deprecatedNamesUsed }
        writer.member("type", operation.rawValue)
        switch operation {
        case .promotionalOffer:
            try fields.allow(["productId", "offerIdentifier", "transactionId", "nonce", "issuedAt"])
            let request = PromotionalOfferRequest(
                productId: try fields.requiredString("productId"),
                offerIdentifier: try fields.requiredString("offerIdentifier"),
                transactionId: try fields.optionalString("transactionId"))
            try check(productId: request.productId, offerIdentifier: request.offerIdentifier)
            write(try signer.sign(request, nonce: try fields.nonce(), issuedAt: try fields.issuedAt()), into: &writer)
        case .introductoryOfferEligibility:
            try fields.allow(["productId", "allowIntroductoryOffer", "transactionId", "nonce", "issuedAt"])
            let request = IntroductoryOfferEligibilityRequest(
                productId: try fields.requiredString("productId"),
                allowIntroductoryOffer: try fields.requiredBool("allowIntroductoryOffer"),
                transactionId: try fields.requiredString("transactionId"))
            write(try signer.sign(request, nonce: try fields.nonce(), issuedAt: try fields.issuedAt()), into: &writer)
        case .advancedCommerce:
            try fields.allow(["request", "nonce", "issuedAt"])
            guard let requestValue = document["request"] else {
                throw LineFailure(code: .invalidInput, field: "request", message: "request is missing")
            }
            var requestJSON = JSONWriter()
            requestValue.write(into: &requestJSON)
            let request: AdvancedCommerce.InAppRequest
            do {
                request = try AdvancedCommerce.InAppRequest.decode(json: requestJSON.bytes)
            } catch {
                throw LineFailure(
                    code: .invalidInput, field: error.path.map { "request.\($0)" } ?? "request",
                    message: error.localizedDescription)
            }
            write(try signer.sign(request, nonce: try fields.nonce(), issuedAt: try fields.issuedAt()), into: &writer)
        case .legacyPromotionalOffer:
            try fields.allow(["productId", "offerIdentifier", "appAccountToken", "nonce", "timestamp"])
            let request = LegacyPromotionalOfferRequest(
                productId: try fields.requiredString("productId"),
                offerIdentifier: try fields.requiredString("offerIdentifier"),
                appAccountToken: try fields.optionalString("appAccountToken") ?? "")
            try check(productId: request.productId, offerIdentifier: request.offerIdentifier)
            let signature = try signer.sign(
                request, nonce: try fields.nonce(), timestamp: try fields.integer("timestamp"))
            writer.member("keyId", signature.keyId)
            writer.member("nonce", signature.nonceString)
            writer.member("timestamp", signature.timestamp)
            writer.member("signature", signature.signature)
            writer.member("productId", signature.productId)
            writer.member("offerIdentifier", signature.offerIdentifier)
            writer.member("appAccountToken", signature.appAccountToken)
        case .serverAPIToken:
            try fields.allow(["lifetime"])
            let lifetime = try fields.lifetime() ?? 300
            let token = try signer.serverAPIToken(lifetime: lifetime)
            writer.member("token", token.token)
            writer.member("issuedAt", token.issuedAtSeconds)
            writer.member("expiresAt", token.expiresAtSeconds)
        case .connectAPIToken:
            try fields.allow(["lifetime", "scope", "individual"])
            let issuer: ConnectAPITokenSigner.Issuer =
                try fields.optionalBool("individual") == true ? .individual : .team(issuerId: signer.issuerId)
            let token = try ConnectAPITokenSigner(key: signer.key, issuer: issuer, clock: signer.clock)
                .token(lifetime: try fields.lifetime() ?? 900, scope: try fields.stringArray("scope") ?? [])
            writer.member("token", token.token)
            writer.member("issuedAt", token.issuedAtSeconds)
            writer.member("expiresAt", token.expiresAtSeconds)
        }
    }

    private func write(_ jws: CompactJWS, into writer: inout JSONWriter) {
        writer.member("jws", jws.serialization)
        writer.member("keyId", signer.key.keyId)
        writer.member("nonce", jws.nonce?.lowercasedString)
        writer.member("issuedAt", jws.issuedAtSeconds)
    }

    /// Typed access to a line's members, with errors that name the member.
    /// A deprecated field name (``deprecatedFields``) is read as its current name: giving both is an
    /// error, and the deprecated one is recorded for a note.
    private struct Fields {
        let document: JSONValue
        /// The deprecated names the line used, as given.
        private(set) var deprecatedNamesUsed: [String] = []

        init(_ document: JSONValue) { self.document = document }

        /// Checks that every member is `type`, `id` or one of `names` (or a deprecated name of one),
        /// and maps each deprecated name given to its current one.
        mutating func allow(_ names: [String]) throws {
            for key in document.keys where key != "type" && key != "id" && !names.contains(key) {
                guard let current = BatchSigner.deprecatedFields[key], names.contains(current) else {
                    throw LineFailure(
                        code: .invalidInput, field: key,
                        message: "\(key) is not a field of this type: expected \(names.joined(separator: ", "))")
                }
                guard document[current] == nil else {
                    throw LineFailure(
                        code: .invalidInput, field: key,
                        message: "\(key) and \(current) are the same field: give only \(current)")
                }
                deprecatedNamesUsed.append(key)
            }
        }

        /// The member named `name`, or its deprecated spelling.
        private func value(_ name: String) -> JSONValue? {
            if let value = document[name] { return value }
            guard let old = BatchSigner.deprecatedFields.first(where: { $0.value == name })?.key else { return nil }
            return document[old]
        }

        /// The name the line used for `name` (its deprecated spelling when that is what it gave), for errors.
        private func spelling(_ name: String) -> String {
            if document[name] != nil { return name }
            return BatchSigner.deprecatedFields.first(where: { $0.value == name && document[$0.key] != nil })?.key
                ?? name
        }

        func optionalString(_ name: String) throws -> String? {
            switch value(name) {
            case nil, .null?: return nil
            case .string(let value)?: return value
            case let other?: throw wrongType(spelling(name), "a string", other)
            }
        }

        func optionalBool(_ name: String) throws -> Bool? {
            switch value(name) {
            case nil, .null?: return nil
            case .bool(let value)?: return value
            case let other?: throw wrongType(name, "true or false", other)
            }
        }

        /// An array of strings, for `scope`.
        func stringArray(_ name: String) throws -> [String]? {
            switch value(name) {
            case nil, .null?: return nil
            case .array(let elements)?:
                return try elements.enumerated().map { index, element in
                    guard case .string(let text) = element else {
                        throw wrongType("\(name)[\(index)]", "a string", element)
                    }
                    return text
                }
            case let other?: throw wrongType(name, "an array of strings", other)
            }
        }

        /// `lifetime` in seconds, as an `Int` (the signers check its range).
        func lifetime() throws -> Int? {
            try integer("lifetime").map { Int(clamping: $0) }
        }

        func requiredString(_ name: String) throws -> String {
            guard let value = try optionalString(name) else { throw missing(name) }
            return value
        }

        func requiredBool(_ name: String) throws -> Bool {
            switch value(name) {
            case nil, .null?: throw missing(name)
            case .bool(let value)?: return value
            case let other?: throw wrongType(name, "true or false", other)
            }
        }

        func integer(_ name: String) throws -> Int64? {
            switch value(name) {
            case nil, .null?: return nil
            case let value?:
                guard let integer = value.exactInteger else { throw wrongType(spelling(name), "an integer", value) }
                return integer
            }
        }

        /// `issuedAt` (or `iat`): whole seconds, range-checked before it becomes a `Date`.
        func issuedAt() throws -> Date? {
            guard let seconds = try integer("issuedAt") else { return nil }
            return ClaimTime.date(seconds: try ClaimTime.checkSeconds(seconds, field: spelling("issuedAt")))
        }

        func nonce() throws -> UUID? {
            guard let text = try optionalString("nonce") else { return nil }
            guard let nonce = UUID(uuidString: text) else {
                throw LineFailure(code: .invalidInput, field: "nonce", message: "nonce is invalid: expected a UUID")
            }
            return nonce
        }

        private func missing(_ name: String) -> LineFailure {
            LineFailure(code: .invalidInput, field: name, message: "\(name) is missing")
        }

        private func wrongType(_ name: String, _ expected: String, _ found: JSONValue) -> LineFailure {
            LineFailure(
                code: .invalidInput, field: name,
                message: "\(name) has the wrong type: expected \(expected), found \(found.numberDescription)")
        }
    }
}

extension JSONValue {
    /// Writes the value back as compact JSON, members in their original order.
    func write(into writer: inout JSONWriter) {
        switch self {
        case .object(let members):
            writer.beginObject()
            for (key, value) in members {
                writer.dynamicKey(key)
                value.write(into: &writer)
            }
            writer.endObject()
        case .array(let elements):
            writer.beginArray()
            for element in elements { element.write(into: &writer) }
            writer.endArray()
        case .string(let text): writer.string(text)
        case .number(let text): writer.raw(Array(text.utf8))
        case .bool(let value): writer.bool(value)
        case .null: writer.raw(Array("null".utf8))
        }
    }
}
