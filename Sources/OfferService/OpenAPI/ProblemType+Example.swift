import NIOHTTP1
import OfferCodes
import OfferJSON
import OfferSigning

extension ProblemType {
    /// The request id in the document's examples.
    static let exampleRequestId = "5f0c1e9a7b2d4c83"

    /// An example of this problem as `operation` answers it, built by ``ServiceProblem`` the way
    /// the service builds it (an `invalid-field` example comes from validating an empty body
    /// against the operation's schema).
    func example(in operation: ServiceOperation?) -> JSONValue {
        exampleProblem(in: operation).jsonValue(requestId: Self.exampleRequestId)
    }

    /// The headers this problem's responses carry, by name (see ``OpenAPIHeaders``).
    var documentedHeaders: [String] {
        switch self {
        case .unauthorized: [OpenAPIHeaders.wwwAuthenticate]
        case .methodNotAllowed: [OpenAPIHeaders.allow]
        case .rateLimited, .unavailable, .ledgerUnavailable: [OpenAPIHeaders.retryAfter]
        case .badRequest, .bodyTimeout, .bodyTooLarge: [OpenAPIHeaders.connection]
        default: []
        }
    }

    private func exampleProblem(in operation: ServiceOperation?) -> ServiceProblem {
        let limits = ServiceLimits()
        switch self {
        case .badRequest:
            return ServiceProblem.badRequest(.invalidEOFState)
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
            return CodeSchemas.problem(
                for: .unknownCampaign(campaign: "summer-2027"),
                campaignField: operation?.requestSchema.map { _ in "campaign" })
        case .unknownOffer:
            return CodeSchemas.problem(
                for: .unknownOffer(offer: "Summer half price", campaign: "spring-2027"), campaignField: "campaign")
        case .noCodeLeft:
            return CodeSchemas.problem(
                for: .noCodeLeft(
                    campaign: "spring-2027", offer: "Spring half price, 3 months", environment: .production,
                    assigned: 200, stored: 200), campaignField: "campaign")
        case .nothingToAssign:
            return CodeSchemas.problem(
                for: .nothingToAssign(
                    campaign: "spring-2027", offer: "Spring trial, 1 month free", environment: .production,
                    reason: "its one-time-use codes are not imported yet (run `offerkit codes import` with Apple's CSV)"
                ),
                campaignField: "campaign")
        case .offerInactive:
            return CodeSchemas.problem(
                for: .offerInactive(offer: "Spring trial, 1 month free", campaign: "spring-2027"),
                campaignField: "campaign")
        case .ledgerUnavailable:
            return CodeSchemas.problem(
                for: .databaseFailure(operation: "hand out a code", reason: "the server closed the connection"),
                campaignField: "campaign")
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
