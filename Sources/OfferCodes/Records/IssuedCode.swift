/// One code in the ledger, as exports and plans read it.
public struct IssuedCode: Sendable, Equatable {
    public var code: String
    public var offer: String
    public var kind: LedgerBatch.Kind
    public var batchIndex: Int
    public var redemptionLimit: Int
    public var expirationDate: CalendarDate?
    public var environment: CodeEnvironment

    public init(
        code: String, offer: String, kind: LedgerBatch.Kind, batchIndex: Int, redemptionLimit: Int,
        expirationDate: CalendarDate?, environment: CodeEnvironment
    ) {
        self.code = code
        self.offer = offer
        self.kind = kind
        self.batchIndex = batchIndex
        self.redemptionLimit = redemptionLimit
        self.expirationDate = expirationDate
        self.environment = environment
    }
}
