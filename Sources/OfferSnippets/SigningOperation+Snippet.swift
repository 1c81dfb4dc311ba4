import OfferServiceContract
import OfferSigning

extension SigningOperation {
    /// The service operation that the operation's snippet calls (its method, path and
    /// `operationId`): the one whose API key scope has the operation's name, so a snippet follows
    /// the service's path when it changes.
    ///
    /// Every signing operation has one; a test renders every operation in every server language.
    var serviceOperation: OperationContract {
        guard let operation = OperationContract.all.first(where: { $0.scope?.rawValue == rawValue }) else {
            preconditionFailure("the service has no operation with the scope \(rawValue)")
        }
        return operation
    }

    /// The template file name for this operation, such as `promotional-offer.mustache`.
    var snippetFileName: String { rawValue + ".mustache" }
}
