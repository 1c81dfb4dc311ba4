import Foundation
import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/signatures/promotional-offer`: a promotional offer as a V2 compact JWS.
    static let signPromotionalOffer = ServiceOperation(.signPromotionalOffer, body: PromotionalOfferBody.self) {
        body, request in
        let signer = try request.signer(for: body.bundleId)
        try await request.checkPromotionalOffer(
            bundleId: body.bundleId, productId: body.offer.productId, body.offer.offerIdentifier)
        let jws = try signer.sign(body.offer, nonce: body.nonce)
        request.state.metrics.signed(SigningOperation.promotionalOffer)
        return OperationResponse(body: CommonSchemas.signedJWS(jws, keyId: signer.key.keyId))
    }
}
