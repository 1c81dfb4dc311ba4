import Foundation
import OfferJSON
import OfferSigning

extension OperationContract {
    /// `POST /v1/signatures/advanced-commerce`: an Advanced Commerce in-app request as a compact JWS.
    package static let signAdvancedCommerceRequest = OperationContract(
        id: "signAdvancedCommerceRequest", method: .post, path: "/v1/signatures/advanced-commerce",
        tag: "Signatures",
        summary: "Sign an Advanced Commerce in-app request (compact JWS)",
        description: """
            Checks an Advanced Commerce API in-app request (one-time charge, create, modify or reactivate a \
            subscription) against Apple's rules and signs it as a compact JWS (`aud` = `advanced-commerce-api`) whose \
            `request` claim is the request's JSON, base64-encoded. The app passes the JWS to StoreKit's \
            `AdvancedCommerceProduct.purchase(compactJWS:confirmIn:options:)` (iOS 18.4+; see Apple's "Sending \
            Advanced Commerce API requests from your app"). Fields are checked by the schema first, then by the signing library (upper-case \
            `currency` and `storefront`, lengths in UTF-16 code units); either way a refused field is an \
            `invalid-field` problem whose `field` starts with `request.`, such as `request.items[0].SKU`. \
            A `nonce`, when given, must be a version-4 UUID.
            """,
        scope: .advancedCommerce, body: AdvancedCommerceBody.self, responseSchema: CommonSchemas.signedJWS,
        problems: [.unknownApp, .forbidden]
    ).computingOnly().limitingBundles(to: .requestBundleId)
}

/// The body of `signAdvancedCommerceRequest`: its `request` member decoded once, from the JSON the
/// schema checked, into the library's ``AdvancedCommerce/InAppRequest`` and validated by it.
package struct AdvancedCommerceBody: OperationBody {
    package let bundleId: String
    package let request: AdvancedCommerce.InAppRequest
    package let nonce: UUID?

    package init(validated body: ValidatedBody) throws(ServiceProblem) {
        bundleId = try body(Members.bundleId)
        let document = try body(Members.request)
        do {
            request = try AdvancedCommerce.InAppRequest.decode(document: document)
        } catch {
            throw Self.problem(error)
        }
        nonce = try CommonSchemas.nonce(body(Members.nonce))
    }

    package enum Members {
        package static let bundleId = CommonSchemas.bundleIdMember
        package static let request: BodyMember<JSONValue> = .required(
            "request", AdvancedCommerceSchemas.inAppRequest, .json)
        package static let nonce = CommonSchemas.nonceMember
    }

    package static let schema = JSONSchema.object(
        [Members.bundleId.property, Members.request.property, Members.nonce.property],
        description: "An Advanced Commerce in-app request to sign for an app."
    ).named("AdvancedCommerceRequest").example(
        .object([
            ("bundleId", .string("com.example.offerkit.demo")), ("request", AdvancedCommerceExamples.oneTimeCharge),
        ]))

    /// The problem for a request the library refused, its path placed under `request`.
    package static func problem(_ error: RequestDecodingError) -> ServiceProblem {
        if case .invalidRequest(let validation) = error {
            return ServiceProblem.invalid(validation, under: "request")
        }
        let field = error.path.map { $0.isEmpty ? "request" : "request.\($0)" } ?? "request"
        let reason: String
        switch error {
        case .invalidJSON(let message): reason = "is not a valid request: \(message)"
        case .missingField(_, let hint): reason = "is missing" + (hint.map { " (\($0))" } ?? "")
        case .wrongType(_, let expected): reason = "has the wrong type: expected \(expected)"
        case .invalidValue(_, let why): reason = "is invalid: \(why)"
        case .unknownField: reason = "is not a field of this request type"
        case .invalidRequest(let validation): reason = validation.errorDescription ?? "is invalid"
        }
        return ServiceProblem(.invalidField, detail: "\(field) \(reason)", field: field)
    }
}
