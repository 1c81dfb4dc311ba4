/// What a store's list of applied migrations says, checked the same way on every backend.
package enum LedgerMigrations {
    /// How many of `known` (the store's migrations, oldest first) were applied, from what a store
    /// holds: its `tables`, and the identifiers in its list of migrations (`nil` when that list's
    /// table is missing). The caller compares the schema with the one those migrations create.
    ///
    /// - Throws: ``LedgerError/notALedger(path:)`` for another program's tables,
    ///   ``LedgerError/newerSchema(path:unknownMigrations:)`` for a ledger of a newer OfferKit, and
    ///   ``LedgerError/corrupt(path:reason:)`` when the list is missing, has gaps or holds entries
    ///   OfferKit never writes.
    package static func appliedCount(
        tables: Set<String>, ledgerTables: Set<String>, migrationsTable: String, applied: [String]?,
        known: [String], prefix: String, path: String
    ) throws -> Int {
        if tables.isEmpty { return 0 }
        let ours = tables.intersection(ledgerTables)
        guard let applied else {
            if ours.isEmpty { throw LedgerError.notALedger(path: path) }
            throw LedgerError.corrupt(
                path: path, reason: "its table \(migrationsTable) (the schema versions) is missing")
        }
        let unknown = Set(applied).subtracting(known).sorted()
        guard unknown.allSatisfy({ $0.hasPrefix(prefix) }) else {
            if ours.isEmpty { throw LedgerError.notALedger(path: path) }
            throw LedgerError.corrupt(path: path, reason: "its list of schema versions holds unknown entries")
        }
        let count = known.prefix { applied.contains($0) }.count
        guard Set(applied).subtracting(unknown) == Set(known.prefix(count)), applied.count == Set(applied).count else {
            throw LedgerError.corrupt(path: path, reason: "its list of schema versions has gaps")
        }
        if !unknown.isEmpty {
            guard count == known.count else {
                throw LedgerError.corrupt(path: path, reason: "its list of schema versions has gaps")
            }
            throw LedgerError.newerSchema(path: path, unknownMigrations: unknown)
        }
        if count == 0, !tables.subtracting([migrationsTable]).isEmpty {
            if ours.isEmpty { throw LedgerError.notALedger(path: path) }
            throw LedgerError.corrupt(path: path, reason: "it has tables but no schema version")
        }
        return count
    }
}
