import Foundation
import OfferJSON

extension AdvancedCommerce {
    /// Metadata every Advanced Commerce request carries.
    public struct RequestInfo: Codable, Hashable, Sendable {
        /// A UUID you generate for this request (required).
        public var requestReferenceId: UUID
        /// The customer's app account token, if your app uses one.
        public var appAccountToken: UUID?
        /// The `advancedCommerceConsistencyToken` from the latest renewal info, passed through unchanged.
        public var consistencyToken: String?

        public init(requestReferenceId: UUID, appAccountToken: UUID? = nil, consistencyToken: String? = nil) {
            self.requestReferenceId = requestReferenceId
            self.appAccountToken = appAccountToken
            self.consistencyToken = consistencyToken
        }

        private enum CodingKeys: String, CodingKey { case requestReferenceId, appAccountToken, consistencyToken }

        /// Encodes UUIDs lower-case, as they are signed (`JSONEncoder` alone would upper-case them).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(requestReferenceId.lowercasedString, forKey: .requestReferenceId)
            try container.encodeIfPresent(appAccountToken?.lowercasedString, forKey: .appAccountToken)
            try container.encodeIfPresent(consistencyToken, forKey: .consistencyToken)
        }

        func validate() throws(RequestValidationError) {
            try Check.optionalText(
                consistencyToken, "consistencyToken", maximum: AdvancedCommerce.consistencyTokenMaximum)
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("requestReferenceId", requestReferenceId)
            writer.member("appAccountToken", appAccountToken)
            writer.member("consistencyToken", consistencyToken)
            writer.endObject()
        }
    }
}
