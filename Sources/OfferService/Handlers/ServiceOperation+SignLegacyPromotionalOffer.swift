import Foundation
import OfferJSON
import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/signatures/legacy-promotional-offer`: a promotional offer signed the legacy way (version 1).
    static let signLegacyPromotionalOffer = ServiceOperation(
        .signLegacyPromotionalOffer, body: LegacyPromotionalOfferBody.self
    ) { body, request in
        let signer = try request.signer(for: body.bundleId)
        try await request.checkPromotionalOffer(
            bundleId: body.bundleId, productId: body.offer.productId, body.offer.offerIdentifier)
        let signature = try signer.sign(body.offer, nonce: body.nonce)
        request.state.metrics.signed(SigningOperation.legacyPromotionalOffer)
        return OperationResponse(body: LegacyPromotionalOfferBody.response(signature))
    }

    /// `POST /v1/signatures/promotional-offer-v1`: the earlier path of ``signLegacyPromotionalOffer``,
    /// still served (deprecated), by the same handler.
    static let signLegacyPromotionalOfferDeprecatedPath = ServiceOperation(
        .signLegacyPromotionalOfferDeprecatedPath, handler: signLegacyPromotionalOffer.handler)
}
