/// One entry of an offer's `oneTimeUseCodes` as read (see ``OfferDraft``).
struct OneTimeUseBatchDraft {
    var count: Int?
    var expirationDate: CalendarDate?
    var environment: DraftPart<CodeEnvironment> = .absent

    init(count: Int?, expirationDate: CalendarDate?, environment: DraftPart<CodeEnvironment>) {
        self.count = count
        self.expirationDate = expirationDate
        self.environment = environment
    }

    init(_ batch: OneTimeUseBatch) {
        self.init(
            count: batch.count, expirationDate: batch.expirationDate,
            environment: DraftPart(batch.environment, isThere: false))
    }

    /// The batch, when every part of it could be read.
    var batch: OneTimeUseBatch? {
        guard let count, let expirationDate, let environment = environment.modelValue else { return nil }
        return OneTimeUseBatch(count: count, expirationDate: expirationDate, environment: environment)
    }
}
