import OfferCodes
import OfferLedgerPostgres

/// A ledger as the CLI opens it (``LedgerOptions``): the ``CodeLedger`` operations, plus the
/// integrity check the commands run first and the name they print.
protocol OpenLedger: CodeLedger {
    /// See ``SQLiteLedger/checkIntegrity(thorough:)`` and ``PostgresLedger/checkIntegrity(thorough:)``.
    func checkIntegrity(thorough: Bool) throws
    /// The file, or the URL without its password (`nil`: in memory).
    var path: String? { get }
}

extension OpenLedger {
    func checkIntegrity() throws { try checkIntegrity(thorough: false) }
}

extension SQLiteLedger: OpenLedger {}

extension PostgresLedger: OpenLedger {
    var path: String? { description }
}
