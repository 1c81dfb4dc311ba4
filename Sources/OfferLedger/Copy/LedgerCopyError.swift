import Foundation
import OfferCodes

/// Why `LedgerCopy` refused or failed: in every case nothing was written to the target.
/// Messages name the ledgers without passwords, never codes or recipients.
public enum LedgerCopyError: Error, Equatable, Sendable {
    /// The target already holds something: a copy goes to a new or empty ledger only.
    case targetNotEmpty(target: String, campaigns: Int, batches: Int, codes: Int, assignments: Int)
    /// The source holds nothing recorded: there is nothing to copy.
    case sourceEmpty(source: String)
    /// After loading, the target holds other counts than the source: `what` says which.
    case verificationFailed(target: String, what: String, expected: Int, found: Int)
}

extension LedgerCopyError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .targetNotEmpty(let target, let campaigns, let batches, let codes, let assignments):
            return "The ledger at \(target) is not empty (campaigns: \(ProblemText.grouped(campaigns)), "
                + "batches: \(ProblemText.grouped(batches)), codes: \(ProblemText.grouped(codes)), "
                + "assignments: \(ProblemText.grouped(assignments))); expected a new or empty ledger to copy into. "
                + "Nothing was written: give a new file, or a new schema (?schema=NAME)."
        case .sourceEmpty(let source):
            return "The ledger at \(source) holds nothing recorded, so there is nothing to copy; expected the "
                + "ledger that `offerkit codes generate` or `import` recorded to (check the path or ?schema=NAME). "
                + "Nothing was written."
        case .verificationFailed(let target, let what, let expected, let found):
            return "The copy into \(target) holds \(ProblemText.grouped(found)) \(what) where the source holds "
                + "\(ProblemText.grouped(expected)); nothing was written (the copy was rolled back)."
        }
    }
}
