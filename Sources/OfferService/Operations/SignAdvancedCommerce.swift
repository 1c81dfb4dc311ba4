import OfferJSON
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/signatures/advanced-commerce`: an Advanced Commerce in-app request as a compact JWS.
    static let signAdvancedCommerceRequest = ServiceOperation(
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
        scope: .advancedCommerce, requestSchema: AdvancedCommerceBody.schema, responseSchema: CommonSchemas.signedJWS,
        problems: [.unknownApp, .forbidden]
    ) { request in
        let signer = try request.signer(for: request.string("bundleId"))
        let inAppRequest = try AdvancedCommerceBody.inAppRequest(request)
        let jws = try signer.sign(inAppRequest, nonce: try CommonSchemas.nonce(request))
        request.state.metrics.signed(OperationScope.advancedCommerce.rawValue)
        return OperationResponse(body: CommonSchemas.signedJWS(jws, keyID: signer.key.keyID))
    }
}

/// The body of `signAdvancedCommerceRequest`, and its `request` member decoded by the library.
enum AdvancedCommerceBody {
    static let schema = JSONSchema.object(
        [
            .init("bundleId", CommonSchemas.bundleID),
            .init("request", AdvancedCommerceSchemas.inAppRequest),
            .init("nonce", CommonSchemas.nonce, required: false),
        ], description: "An Advanced Commerce in-app request to sign for an app."
    ).named("AdvancedCommerceRequest").example(
        .object([
            ("bundleId", .string("com.example.offerkit.demo")), ("request", AdvancedCommerceExamples.oneTimeCharge),
        ]))

    /// The body's `request` member, decoded and validated by the library.
    /// - Throws: an `invalid-field` problem whose `field` is the path under `request`.
    static func inAppRequest(_ request: OperationRequest) throws(ServiceProblem) -> AdvancedCommerce.InAppRequest {
        let json = request.body?["request"]?.serialized(pretty: false) ?? []
        do {
            return try AdvancedCommerce.InAppRequest.decode(json: json)
        } catch {
            throw problem(error)
        }
    }

    /// The problem for a request the library refused, its path placed under `request`.
    static func problem(_ error: RequestDecodingError) -> ServiceProblem {
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
