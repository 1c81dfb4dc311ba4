import Foundation
import OfferJSON

extension AdvancedCommerce {
    /// One of the four in-app requests, as signed into the `request` claim.
    public enum InAppRequest: Hashable, Sendable {
        case oneTimeCharge(OneTimeChargeCreateRequest)
        case createSubscription(SubscriptionCreateRequest)
        case modifySubscription(SubscriptionModifyInAppRequest)
        case reactivateSubscription(SubscriptionReactivateInAppRequest)

        /// The request's `operation`.
        public var operation: Operation {
            switch self {
            case .oneTimeCharge: .createOneTimeCharge
            case .createSubscription: .createSubscription
            case .modifySubscription: .modifySubscription
            case .reactivateSubscription: .reactivateSubscription
            }
        }

        /// The API version OfferKit writes: `"1"`.
        public static let version = "1"

        /// Checks every field against Apple's limits.
        /// - Throws: ``RequestValidationError`` naming the JSON path of the first field at fault.
        public func validate() throws(RequestValidationError) {
            switch self {
            case .oneTimeCharge(let request): try request.validate()
            case .createSubscription(let request): try request.validate()
            case .modifySubscription(let request): try request.validate()
            case .reactivateSubscription(let request): try request.validate()
            }
        }

        /// The exact UTF-8 JSON that is signed: `operation`, `version`, `requestInfo`, then the
        /// operation's fields in a fixed order; absent optionals are left out.
        public var jsonBytes: [UInt8] {
            var writer = JSONWriter(capacity: 512)
            write(into: &writer)
            return writer.bytes
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("operation", operation.rawValue)
            writer.member("version", Self.version)
            writer.key("requestInfo")
            body.requestInfo.write(into: &writer)
            body.writeFields(into: &writer)
            writer.endObject()
        }

        /// The request inside, whatever its operation.
        private var body: any InAppRequestBody {
            switch self {
            case .oneTimeCharge(let request): request
            case .createSubscription(let request): request
            case .modifySubscription(let request): request
            case .reactivateSubscription(let request): request
            }
        }
    }
}

/// What the four in-app request types share: request info, then their own fields.
protocol InAppRequestBody: Sendable {
    var requestInfo: AdvancedCommerce.RequestInfo { get }
    func writeFields(into writer: inout JSONWriter)
}

extension AdvancedCommerce.OneTimeChargeCreateRequest: InAppRequestBody {}
extension AdvancedCommerce.SubscriptionCreateRequest: InAppRequestBody {}
extension AdvancedCommerce.SubscriptionModifyInAppRequest: InAppRequestBody {}
extension AdvancedCommerce.SubscriptionReactivateInAppRequest: InAppRequestBody {}

extension AdvancedCommerce.InAppRequest: JWSRequestClaims {
    static let kind = JWSKind.advancedCommerce

    func writeClaims(into writer: inout JSONWriter) {
        writer.member("request", base64: jsonBytes)
    }
}

extension AdvancedCommerce.InAppRequest: Codable {
    private enum CodingKeys: String, CodingKey { case operation, version }

    /// Decodes any of the four requests, dispatching on `operation`. `version`, when present,
    /// must be `"1"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let operation = try container.decode(AdvancedCommerce.Operation.self, forKey: .operation)
        if let version = try container.decodeIfPresent(String.self, forKey: .version), version != Self.version {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "\"\(version)\" is not supported: expected \"1\"")
        }
        switch operation {
        case .createOneTimeCharge: self = .oneTimeCharge(try .init(from: decoder))
        case .createSubscription: self = .createSubscription(try .init(from: decoder))
        case .modifySubscription: self = .modifySubscription(try .init(from: decoder))
        case .reactivateSubscription: self = .reactivateSubscription(try .init(from: decoder))
        }
    }

    /// Encodes the same document that is signed (see ``jsonBytes``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(operation, forKey: .operation)
        try container.encode(Self.version, forKey: .version)
        switch self {
        case .oneTimeCharge(let request): try request.encode(to: encoder)
        case .createSubscription(let request): try request.encode(to: encoder)
        case .modifySubscription(let request): try request.encode(to: encoder)
        case .reactivateSubscription(let request): try request.encode(to: encoder)
        }
    }
}
