import Foundation
import OfferJSON
import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/signatures/advanced-commerce`: an Advanced Commerce in-app request as a compact JWS.
    static let signAdvancedCommerceRequest = ServiceOperation(
        .signAdvancedCommerceRequest, body: AdvancedCommerceBody.self
    ) { body, request in
        let signer = try request.signer(for: body.bundleId)
        let jws = try signer.sign(body.request, nonce: body.nonce)
        request.state.metrics.signed(SigningOperation.advancedCommerce)
        return OperationResponse(body: CommonSchemas.signedJWS(jws, keyId: signer.key.keyId))
    }
}
