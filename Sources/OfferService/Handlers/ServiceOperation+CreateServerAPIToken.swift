import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/tokens/server-api`: a bearer token for the App Store Server API.
    static let createServerAPIToken = ServiceOperation(.createServerAPIToken, body: ServerAPITokenBody.self) {
        body, request in
        let signer = try request.signer(for: body.bundleId)
        let token: BearerToken
        if let lifetime = body.lifetime {
            token = try signer.serverAPIToken(lifetime: lifetime)
        } else {
            token = try signer.serverAPIToken()
        }
        request.state.metrics.signed(SigningOperation.serverAPIToken)
        return OperationResponse(body: CommonSchemas.bearerToken(token))
    }
}
