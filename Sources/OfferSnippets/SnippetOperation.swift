import OfferJSON
import OfferServiceContract
import OfferSigning

/// What a snippet does: call one signing operation (a `SigningOperation`, by the name every
/// surface uses), or `batch`: several of them in one call of `POST /v1/signatures/batch`.
public enum SnippetOperation: Hashable, Sendable, CaseIterable, RawRepresentable, EnumeratedValue {
    /// One signing operation, at its own path.
    case signing(SigningOperation)
    /// Several signing requests of any types in one call.
    case batch

    /// Every operation, in the order they are listed: the signing operations, then `batch`.
    public static var allCases: [SnippetOperation] { SigningOperation.allCases.map(signing) + [.batch] }

    /// The operation named `rawValue`: a signing operation's name, or `batch`.
    public init?(rawValue: String) {
        if rawValue == "batch" {
            self = .batch
        } else if let operation = SigningOperation(rawValue: rawValue) {
            self = .signing(operation)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .signing(let operation): operation.rawValue
        case .batch: "batch"
        }
    }

    /// Every name, for messages and help.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The service operation the snippet calls (its method, path and `operationId`).
    var serviceOperation: OperationContract {
        switch self {
        case .signing(let operation): operation.serviceOperation
        case .batch: OperationContract.signBatch
        }
    }

    /// The template file name for this operation, such as `batch.mustache`.
    var snippetFileName: String { rawValue + ".mustache" }
}
