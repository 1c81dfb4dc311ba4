import OfferCodes
import OfferJSON
import OfferSigning

extension ProblemType {
    /// What NIO's HTTP/1.1 parser says of a body cut short (`HTTPParserError.invalidEOFState`), in
    /// the `bad-request` example (a test of the service checks that NIO still says it).
    package static let exampleParserError = "stream ended at an unexpected time"

    /// The request id in the document's examples.
    package static let exampleRequestId = "5f0c1e9a7b2d4c83"

    /// An example of this problem as `operation` answers it, built by ``ServiceProblem`` the way
    /// the service builds it (an `invalid-field` example comes from validating an empty body
    /// against the operation's schema).
    package func example(in operation: OperationContract?) -> JSONValue {
        exampleProblem(in: operation).jsonValue(requestId: Self.exampleRequestId)
    }

    /// The headers this problem's responses carry, by name (see ``OpenAPIHeaders``).
    package var documentedHeaders: [String] {
        switch self {
        case .unauthorized: [OpenAPIHeaders.wwwAuthenticate]
        case .methodNotAllowed: [OpenAPIHeaders.allow]
        case .rateLimited, .unavailable, .ledgerUnavailable: [OpenAPIHeaders.retryAfter]
        case .badRequest, .bodyTimeout, .bodyTooLarge: [OpenAPIHeaders.connection]
        default: []
        }
    }

    private func exampleProblem(in operation: OperationContract?) -> ServiceProblem {
        let limits = ServiceLimits()
        switch self {
        case .badRequest:
            return ServiceProblem.badRequest(ServiceProblem.bodyEndedEarly, parser: Self.exampleParserError)
        case .bodyTimeout:
            return ServiceProblem.bodyTimeout(seconds: String(Int(limits.requestTimeoutSeconds)))
        case .malformedJSON:
            return ServiceProblem(self, detail: "the body is not valid JSON: expected a member name at byte 31")
        case .invalidField:
            if operation?.requestSchema == nil, let parameter = operation?.pathParameters.first {
                return ServiceProblem.invalid(Self.emptyParameter(parameter))
            }
            return ServiceProblem.invalid(Self.missingMember(of: operation?.requestSchema))
        case .invalidCampaign:
            return CampaignSchemas.invalidCampaign(Self.exampleCampaignProblems)
        case .unauthorized:
            return ServiceProblem(self, detail: "send the API key as `Authorization: Bearer <key>`")
        case .unverifiedRequest:
            return ServiceProblem.unverifiedRequest
        case .forbidden:
            let scope = operation?.scope?.rawValue ?? OperationScope.promotionalOffer.rawValue
            return ServiceProblem(self, detail: "API key 'billing-backend' does not have the scope '\(scope)'")
        case .unknownApp:
            return ServiceProblem(
                self, detail: "bundle ID com.example.unknown is not configured in this service", field: "bundleId")
        case .notConfigured:
            return ServiceProblem(
                self, detail: "this service has no App Store Connect API key: add `connectApiKey` to its configuration")
        case .notFound:
            return ServiceProblem(
                self, detail: "no endpoint at /v1/signatures/unknown; the API is described at /openapi.json")
        case .methodNotAllowed:
            let path = operation?.path ?? "/healthz"
            let method = operation?.method.rawValue ?? "GET"
            return ServiceProblem(self, detail: "\(path) takes \(method), not DELETE")
        case .bodyTooLarge:
            return ServiceProblem.bodyTooLarge(limit: limits.maxBodyBytes)
        case .unsupportedMediaType:
            return ServiceProblem(
                self, detail: "send the body as JSON with `Content-Type: application/json` (found text/plain)")
        case .rateLimited:
            return ServiceProblem(
                self,
                detail: "API key 'billing-backend' used up its rate limit (\(Int(limits.requestsPerSecond)) requests "
                    + "per second, bursts of \(limits.burst)); retry in 1 s")
        case .timeout:
            return ServiceProblem(
                self,
                detail:
                    "the request (body and operation) took longer than \(Int(limits.requestTimeoutSeconds)) s and was stopped"
            )
        case .unavailable:
            return ServiceProblem(self, detail: "the service is shutting down")
        case .unknownCampaign:
            return CodeSchemas.unknownCampaign(
                "summer-2027", field: operation?.requestSchema.map { _ in "campaign" })
        case .unknownOffer:
            return CodeSchemas.unknownOffer("Summer half price", campaign: "spring-2027", field: "offer")
        case .noCodeLeft:
            return CodeSchemas.noCodeLeft(
                campaign: "spring-2027", offer: "Spring half price, 3 months", environment: .production,
                assigned: 200, stored: 200)
        case .nothingToAssign:
            return CodeSchemas.nothingToAssign(
                campaign: "spring-2027", offer: "Spring trial, 1 month free",
                reason: "its one-time-use codes are not imported yet (run `offerkit codes import` with Apple's CSV)")
        case .offerInactive:
            return CodeSchemas.offerInactive("Spring trial, 1 month free", campaign: "spring-2027")
        case .ledgerUnavailable:
            return CodeSchemas.ledgerUnavailable
        case .internalError:
            return ServiceProblem(
                self,
                detail: "the service failed to answer; the log has the details under request id "
                    + Self.exampleRequestId)
        default:
            return ServiceProblem(self, detail: explanation)
        }
    }

    /// The problems in the example of `validateCampaign`'s response.
    private static var exampleCampaignProblems: [ValidationProblem] {
        guard case .array(let problems)? = CampaignSchemas.validation.documentedExample?["problems"] else { return [] }
        return problems.compactMap { problem in
            guard case .string(let path)? = problem["path"], case .string(let rule)? = problem["rule"],
                case .string(let message)? = problem["message"]
            else { return nil }
            var allowed: String?
            if case .string(let text)? = problem["allowed"] { allowed = text }
            return ValidationProblem(path: path, rule: rule, message: message, allowed: allowed)
        }
    }

    /// What the validator reports for an empty value of a path parameter.
    private static func emptyParameter(_ parameter: JSONSchema.Property) -> SchemaViolation {
        do {
            try SchemaValidator().validate(.object([(parameter.name, .string(""))]), against: .object([parameter]))
        } catch {
            return error
        }
        return SchemaViolation(field: parameter.name, expected: "a valid value", found: "an empty string")
    }

    /// What the validator reports for an empty object as the body of `schema` (its first required
    /// member is missing), or for an array when the schema requires no member.
    private static func missingMember(of schema: JSONSchema?) -> SchemaViolation {
        if let schema {
            for body in [JSONValue.object([]), .array([])] {
                do {
                    try SchemaValidator().validate(body, against: schema)
                } catch {
                    return error
                }
            }
        }
        return SchemaViolation(field: "bundleId", expected: StringRules.Format.bundleId.expected, found: "nothing")
    }
}
