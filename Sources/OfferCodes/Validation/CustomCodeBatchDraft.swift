/// One entry of an offer's `customCodes` as read (see ``OfferDraft``).
///
/// Both sources are kept when the batch names both (a problem the reader reports), so that the
/// rules check each: the fix is to move one of them into a batch of its own.
struct CustomCodeBatchDraft {
    /// The given codes; a `nil` element could not be read.
    var codes: DraftPart<[String?]> = .absent
    var generate: DraftPart<GenerationSpecDraft> = .absent
    var redemptionLimit: Int?
    var expirationDate: DraftPart<CalendarDate> = .absent

    init() {}

    init(_ batch: CustomCodeBatch) {
        switch batch.source {
        case .given(let given): codes = .present(given)
        case .generated(let spec): generate = .present(GenerationSpecDraft(spec))
        }
        redemptionLimit = batch.redemptionLimit
        expirationDate = DraftPart(batch.expirationDate, isThere: false)
    }

    /// How many codes the batch holds, when that is known (exactly one source, with a count).
    var codeCount: Int? {
        switch (codes, generate) {
        case (.present(let given), .absent): given.count
        case (.absent, .present(let spec)): spec.count
        default: nil
        }
    }

    /// The batch, when every part of it could be read and it has exactly one source.
    var batch: CustomCodeBatch? {
        guard let redemptionLimit, let expirationDate = expirationDate.modelValue else { return nil }
        let source: CustomCodeBatch.Source
        switch (codes, generate) {
        case (.present(let given), .absent):
            guard let given = OfferDraft.all(given) else { return nil }
            source = .given(given)
        case (.absent, .present(let spec)):
            guard let spec = spec.spec else { return nil }
            source = .generated(spec)
        default:
            return nil
        }
        return CustomCodeBatch(source: source, redemptionLimit: redemptionLimit, expirationDate: expirationDate)
    }
}
