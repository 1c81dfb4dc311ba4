import OfferCodes
import OfferLedger
import PostgresNIO

/// A claim (``ClaimRequest``) as a prepared statement: the call of `offerkit_claim_code`, parsed
/// and planned once per connection of the pool; each claim then sends only its values. Sent as
/// a new statement each time, parsing and planning the call took about a tenth of the server's
/// time per claim (a profile of 8 processes claiming at once).
///
/// The function is found through the connection's `search_path` (the ledger's schema) when a
/// connection first prepares the statement: each ledger has a pool of its own.
struct ClaimStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    static let sql = """
        SELECT r_outcome, r_batch, r_seq, r_code, r_channel, r_assigned_at
        FROM offerkit_claim_code($1, $2, $3, $4, $5, $6, $7, $8, $9)
        """

    static let bindingDataTypes: [PostgresDataType] = [
        .text, .text, .text, .text, .text, .text, .int8, .int8Array, .bool,
    ]

    let request: ClaimRequest

    func makeBindings() throws -> PostgresBindings {
        let scope = request.scope
        var bindings = PostgresBindings(capacity: 9)
        bindings.append(scope.campaign)
        bindings.append(scope.offer)
        bindings.append(scope.environment.rawValue)
        bindings.append(request.recipient)
        bindings.append(request.channel.rawValue)
        bindings.append(LedgerTimestamp.text(request.assignedAt))
        bindings.append(request.revision)
        bindings.append(request.batchIds)
        bindings.append(request.shared)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
