import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/tokens/connect-api`: a bearer token for the App Store Connect API.
    static let createConnectAPIToken = ServiceOperation(.createConnectAPIToken, body: ConnectAPITokenBody.self) {
        body, request in
        // An App Store Connect API token acts for the whole team, every app: a key limited to some
        // bundle IDs must not be able to mint one (here, so that a batch item is refused too).
        try request.authorizeEveryApp(
            because: "an App Store Connect API token acts for the whole team", action: "create one")
        guard let signer = request.state.apps.connectAPI else {
            throw ServiceProblem(
                .notConfigured,
                detail: "this service has no App Store Connect API key: add `connectApiKey` to its configuration")
        }
        let token: BearerToken
        if let lifetime = body.lifetime {
            token = try signer.token(lifetime: lifetime, scope: body.scope)
        } else {
            token = try signer.token(scope: body.scope)
        }
        request.state.metrics.signed(SigningOperation.connectAPIToken)
        return OperationResponse(body: CommonSchemas.bearerToken(token))
    }
}
