import Foundation
import OfferJSON

/// Signs JSON Lines requests: one request object in, one result object out.
///
/// Each input line is an object with a `type` and that type's fields (the request models' names):
///
/// | `type` | fields |
/// |---|---|
/// | `promotional-offer` | `productId`, `offerIdentifier`, `transactionId`?, `nonce`?, `iat`? |
/// | `promotional-offer-v1` | `productId`, `offerIdentifier`, `appAccountToken`?, `nonce`?, `timestamp`? |
/// | `intro-eligibility` | `productId`, `allowIntroductoryOffer`, `transactionId`, `nonce`?, `iat`? |
/// | `advanced-commerce` | `request` (the request object), `nonce`?, `iat`? |
/// | `server-api-token` | `lifetime`? |
///
/// An optional `id` (string or integer) is echoed back. A line that cannot be signed gives an
/// object with `error` {`code`, `field`?, `message`} instead; it never stops the batch.
/// The processor is an immutable `Sendable` value: call it from as many threads as you like.
public struct BatchSigner: Sendable {
    /// The request types a line may name.
    public static let types = [
        "promotional-offer", "promotional-offer-v1", "intro-eligibility", "advanced-commerce", "server-api-token",
    ]

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

    public init(signer: OfferSigner) {
        self.signer = signer
    }

    /// The outcome of one line.
    public struct Result: Sendable {
        /// The result object, compact JSON without a newline.
        public let json: [UInt8]
        /// Whether the line was signed (`false`: the object carries `error`).
        public let succeeded: Bool
    }

    /// Processes one line (without its newline).
    /// - Parameter lineNumber: 1-based, written into the result as `line`.
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
            case .number(let text) where Int64(text) != nil: writer.member("id", Int64(text)!)
            default: break
            }
        }
        var succeeded = false
        do {
            try sign(document, into: &writer)
            succeeded = true
        } catch let failure as LineFailure {
            writeError(failure.code, field: failure.field, message: failure.message, into: &writer)
        } catch {
            let field = (error as? RequestValidationError)?.field ?? (error as? RequestDecodingError)?.path
            let code: ErrorCode = error is SigningError ? .signingFailed : .invalidInput
            writeError(code, field: field, message: error.localizedDescription, into: &writer)
        }
        writer.endObject()
        return Result(json: writer.bytes, succeeded: succeeded)
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

    private func sign(_ document: JSONValue, into writer: inout JSONWriter) throws {
        guard case .object = document else {
            throw LineFailure(code: .invalidJSON, field: nil, message: "the line must be a JSON object")
        }
        let fields = Fields(document)
        let type = try fields.requiredString("type")
        guard Self.types.contains(type) else {
            throw LineFailure(
                code: .unknownType, field: "type",
                message: "type \"\(type)\" is unknown: expected one of \(Self.types.joined(separator: ", "))")
        }
        writer.member("type", type)
        switch type {
        case "promotional-offer":
            try fields.allow(["productId", "offerIdentifier", "transactionId", "nonce", "iat"])
            let request = PromotionalOfferRequest(
                productId: try fields.requiredString("productId"),
                offerIdentifier: try fields.requiredString("offerIdentifier"),
                transactionId: try fields.optionalString("transactionId"))
            write(try signer.sign(request, nonce: try fields.nonce(), issuedAt: try fields.date("iat")), into: &writer)
        case "intro-eligibility":
            try fields.allow(["productId", "allowIntroductoryOffer", "transactionId", "nonce", "iat"])
            let request = IntroductoryOfferEligibilityRequest(
                productId: try fields.requiredString("productId"),
                allowIntroductoryOffer: try fields.requiredBool("allowIntroductoryOffer"),
                transactionId: try fields.requiredString("transactionId"))
            write(try signer.sign(request, nonce: try fields.nonce(), issuedAt: try fields.date("iat")), into: &writer)
        case "advanced-commerce":
            try fields.allow(["request", "nonce", "iat"])
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
            write(try signer.sign(request, nonce: try fields.nonce(), issuedAt: try fields.date("iat")), into: &writer)
        case "promotional-offer-v1":
            try fields.allow(["productId", "offerIdentifier", "appAccountToken", "nonce", "timestamp"])
            let request = LegacyPromotionalOfferRequest(
                productId: try fields.requiredString("productId"),
                offerIdentifier: try fields.requiredString("offerIdentifier"),
                appAccountToken: try fields.optionalString("appAccountToken") ?? "")
            let signature = try signer.sign(
                request, nonce: try fields.nonce(), timestamp: try fields.integer("timestamp"))
            writer.member("keyId", signature.keyId)
            writer.member("nonce", signature.nonceString)
            writer.member("timestamp", signature.timestamp)
            writer.member("signature", signature.signature)
            writer.member("productId", signature.productId)
            writer.member("offerId", signature.offerIdentifier)
            writer.member("appAccountToken", signature.appAccountToken)
        default:  // server-api-token
            try fields.allow(["lifetime"])
            let lifetime = try fields.integer("lifetime").map(Int.init) ?? 300
            let token = try signer.serverAPIToken(lifetime: lifetime)
            writer.member("token", token.token)
            writer.member("expiresAt", token.expiresAtSeconds)
        }
    }

    private func write(_ jws: CompactJWS, into writer: inout JSONWriter) {
        writer.member("jws", jws.serialization)
        writer.member("nonce", jws.nonce?.lowercasedString)
        writer.member("iat", jws.issuedAtSeconds)
    }

    /// Typed access to a line's members, with errors that name the member.
    private struct Fields {
        let document: JSONValue

        init(_ document: JSONValue) { self.document = document }

        func allow(_ names: [String]) throws {
            if let unknown = document.keys.first(where: { $0 != "type" && $0 != "id" && !names.contains($0) }) {
                throw LineFailure(
                    code: .invalidInput, field: unknown,
                    message: "\(unknown) is not a field of this type: expected \(names.joined(separator: ", "))")
            }
        }

        func optionalString(_ name: String) throws -> String? {
            switch document[name] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            case let other?: throw wrongType(name, "a string", other)
            }
        }

        func requiredString(_ name: String) throws -> String {
            guard let value = try optionalString(name) else { throw missing(name) }
            return value
        }

        func requiredBool(_ name: String) throws -> Bool {
            switch document[name] {
            case nil, .null?: throw missing(name)
            case .bool(let value)?: return value
            case let other?: throw wrongType(name, "true or false", other)
            }
        }

        func integer(_ name: String) throws -> Int64? {
            switch document[name] {
            case nil, .null?: return nil
            case let value?:
                guard let integer = value.exactInteger else { throw wrongType(name, "an integer", value) }
                return integer
            }
        }

        /// A time in whole seconds, range-checked before it becomes a `Date`.
        func date(_ name: String) throws -> Date? {
            guard let seconds = try integer(name) else { return nil }
            return ClaimTime.date(seconds: try ClaimTime.checkSeconds(seconds, field: name))
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
