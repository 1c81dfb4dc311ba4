import OfferJSON

extension ShapeReader {
    static let oneTimeUseMembers = ["count", "expirationDate", "environment"]
    static let customCodeMembers = ["codes", "generate", "redemptionLimit", "expirationDate"]
    static let generateMembers = ["count", "prefix", "length", "alphabet"]

    /// The offer's one-time-use batches (none when the member is absent), or `nil` when the list
    /// cannot be read; an element is `nil` when it is not an object.
    mutating func readOneTimeUseBatches(of offer: ShapeObject) -> [OneTimeUseBatchDraft?]? {
        guard offer.has("oneTimeUseCodes") else { return [] }
        guard
            let values = array(
                "oneTimeUseCodes", of: offer, required: false, allowed: AllowedText.oneTimeUseCodes, elements: .object)
        else { return nil }
        return values.enumerated().map {
            readOneTimeUseBatch($0.element, at: offer.path["oneTimeUseCodes"][$0.offset])
        }
    }

    /// The offer's custom-code batches (none when the member is absent), or `nil` when the list
    /// cannot be read; an element is `nil` when it is not an object.
    mutating func readCustomCodeBatches(of offer: ShapeObject) -> [CustomCodeBatchDraft?]? {
        guard offer.has("customCodes") else { return [] }
        guard
            let values = array(
                "customCodes", of: offer, required: false, allowed: AllowedText.customCodes, elements: .object)
        else { return nil }
        return values.enumerated().map {
            readCustomCodeBatch($0.element, at: offer.path["customCodes"][$0.offset])
        }
    }

    private mutating func readOneTimeUseBatch(_ value: JSONValue, at path: ProblemPath) -> OneTimeUseBatchDraft? {
        guard
            let batch = object(
                value, at: path, noun: "the one-time-use batch", members: Self.oneTimeUseMembers,
                allowed: "an object with count, expirationDate and optionally environment")
        else { return nil }
        let count = integer("count", of: batch, required: true, allowed: AllowedText.codeCount)
        let expirationDate = date("expirationDate", of: batch, required: true)
        let environment: CodeEnvironment? = enumeration(
            "environment", of: batch, required: false, naming: "a code environment")
        return OneTimeUseBatchDraft(
            count: count, expirationDate: expirationDate, environment: part("environment", of: batch, environment))
    }

    private mutating func readCustomCodeBatch(_ value: JSONValue, at path: ProblemPath) -> CustomCodeBatchDraft? {
        guard
            let batch = object(
                value, at: path, noun: "the custom-code batch", members: Self.customCodeMembers,
                allowed: "an object with codes or generate, redemptionLimit and optionally expirationDate")
        else { return nil }
        let codes = readGivenCodes(of: batch)
        let spec = readGenerationSpec(of: batch)
        let redemptionLimit = integer(
            "redemptionLimit", of: batch, required: true, allowed: AllowedText.redemptionLimit)
        let expirationDate = date("expirationDate", of: batch, required: false)
        switch (batch.has("codes"), batch.has("generate")) {
        case (true, true):
            report(
                path, rule: "codes-or-generate",
                "the batch has both \"codes\" and \"generate\"; keep one, and put the other in a batch of its own",
                allowed: AllowedText.customCodeSource)
        case (false, false):
            report(
                path, rule: "codes-or-generate",
                "the batch has neither \"codes\" nor \"generate\"; list the codes, or describe the codes to generate",
                allowed: AllowedText.customCodeSource)
        default:
            break
        }
        var draft = CustomCodeBatchDraft()
        draft.codes = part("codes", of: batch, codes)
        draft.generate = part("generate", of: batch, spec)
        draft.redemptionLimit = redemptionLimit
        draft.expirationDate = part("expirationDate", of: batch, expirationDate)
        return draft
    }

    /// The listed codes (`nil` for each that is not a string), or `nil` when the list is absent
    /// or not an array.
    private mutating func readGivenCodes(of batch: ShapeObject) -> [String?]? {
        guard let values = array("codes", of: batch, required: false, allowed: AllowedText.codes, elements: .string)
        else { return nil }
        return values.enumerated().map {
            string($0.element, at: batch.path["codes"][$0.offset], allowed: AllowedText.customCode)
        }
    }

    /// What could be read of `generate`, or `nil` when it is absent or not an object.
    private mutating func readGenerationSpec(of batch: ShapeObject) -> GenerationSpecDraft? {
        guard
            let generate = object(
                "generate", of: batch, required: false, noun: "generate", members: Self.generateMembers,
                allowed: AllowedText.generate)
        else { return nil }
        let count = integer("count", of: generate, required: true, allowed: AllowedText.codeCount)
        let prefix = string("prefix", of: generate, required: false, allowed: AllowedText.prefix)
        let length = integer("length", of: generate, required: false, allowed: AllowedText.length)
        let alphabet = string("alphabet", of: generate, required: false, allowed: AllowedText.alphabet)
        return GenerationSpecDraft(
            count: count, prefix: part("prefix", of: generate, prefix), length: part("length", of: generate, length),
            alphabet: part("alphabet", of: generate, alphabet))
    }
}
