import OfferCodes

/// A row as a store read it, with typed access to its columns: a value of another type or out of
/// the range OfferKit writes is ``LedgerError/corrupt(path:reason:)`` naming the table and the
/// column, never a trap or a silently different value. The value itself is not shown: it may be
/// garbage, or part of a code.
package struct StoredRow: Sendable {
    package let values: [LedgerValue]
    /// The table, as errors name it (`batches`, `an assignments row`).
    let table: String
    /// The ledger, as errors name it.
    let path: String

    package init(_ values: [LedgerValue], table: String, path: String) {
        self.values = values
        self.table = table
        self.path = path
    }

    private func value(_ index: Int) -> LedgerValue { index < values.count ? values[index] : .other }

    /// Whether the column holds `NULL`.
    func isNull(_ index: Int) -> Bool { value(index) == .null }

    func integer(_ index: Int, _ column: String) throws -> Int64 {
        guard case .integer(let number) = value(index) else { throw corrupt(column, "a whole number") }
        return number
    }

    /// A whole number in `range`.
    func integer(_ index: Int, _ column: String, _ range: ClosedRange<Int>) throws -> Int {
        guard case .integer(let number) = value(index), let int = Int(exactly: number), range.contains(int) else {
            throw corrupt(
                column,
                "a whole number from \(range.lowerBound)" + (range.upperBound == .max ? "" : " to \(range.upperBound)"))
        }
        return int
    }

    /// A row id: a whole number above 0.
    func id(_ index: Int, _ column: String) throws -> Int64 {
        guard case .integer(let number) = value(index), number > 0 else { throw corrupt(column, "a positive row id") }
        return number
    }

    func text(_ index: Int, _ column: String) throws -> String {
        guard case .text(let text) = value(index) else { throw corrupt(column, "text") }
        return text
    }

    /// Text or `NULL`.
    func optionalText(_ index: Int, _ column: String) throws -> String? {
        if isNull(index) { return nil }
        return try text(index, column)
    }

    /// Bytes, `count` of them when given.
    func blob(_ index: Int, _ column: String, count: Int? = nil) throws -> [UInt8] {
        guard case .blob(let bytes) = value(index), count.map({ $0 == bytes.count }) ?? true else {
            throw corrupt(column, count.map { "\($0) bytes" } ?? "bytes")
        }
        return bytes
    }

    /// 0 or 1.
    func boolean(_ index: Int, _ column: String) throws -> Bool {
        guard case .integer(let number) = value(index), number == 0 || number == 1 else {
            throw corrupt(column, "0 or 1")
        }
        return number == 1
    }

    /// A time written `YYYY-MM-DDTHH:MM:SS.sss[sss]Z`.
    func timestamp(_ index: Int, _ column: String) throws -> LedgerRow.Timestamp {
        guard let time = LedgerRow.Timestamp(try text(index, column)) else {
            throw corrupt(column, "a time written YYYY-MM-DDTHH:MM:SS.sssZ")
        }
        return time
    }

    /// A column that does not hold what OfferKit writes there.
    func corrupt(_ column: String, _ expected: String) -> LedgerError {
        .corrupt(path: path, reason: "\(table): the column \(column) does not hold \(expected)")
    }
}
