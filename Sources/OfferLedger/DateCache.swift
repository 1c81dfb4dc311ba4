import Foundation
import OfferCodes

/// Parses the ledger's timestamps, remembering the last one: the assignments of one export all
/// carry the same time, so a long read parses it once.
package struct DateCache {
    private var last: (text: String, date: Date)?

    package init() {}

    /// The date `text` holds (see ``LedgerTimestamp``), or `nil`.
    package mutating func date(_ text: String) -> Date? {
        if let last, last.text == text { return last.date }
        guard let date = LedgerTimestamp.date(text) else { return nil }
        last = (text, date)
        return date
    }
}
