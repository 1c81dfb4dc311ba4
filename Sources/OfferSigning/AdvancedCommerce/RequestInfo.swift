import Foundation

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

        func validate() throws(RequestValidationError) {
            try Check.optionalIdentifier(consistencyToken, "consistencyToken")
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("requestReferenceId", requestReferenceId.lowercasedString)
            writer.member("appAccountToken", appAccountToken?.lowercasedString)
            writer.member("consistencyToken", consistencyToken)
            writer.endObject()
        }
    }
}
