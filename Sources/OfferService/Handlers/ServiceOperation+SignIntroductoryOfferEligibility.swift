import Foundation
import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/signatures/introductory-offer-eligibility`: introductory-offer eligibility as a compact JWS.
    static let signIntroductoryOfferEligibility = ServiceOperation(
        .signIntroductoryOfferEligibility, body: IntroductoryOfferEligibilityBody.self
    ) { body, request in
        let signer = try request.signer(for: body.bundleId)
        let jws = try signer.sign(body.eligibility, nonce: body.nonce)
        request.state.metrics.signed(SigningOperation.introductoryOfferEligibility)
        return OperationResponse(body: CommonSchemas.signedJWS(jws, keyId: signer.key.keyId))
    }
}
