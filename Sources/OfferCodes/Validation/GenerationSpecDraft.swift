/// A custom-code batch's `generate` as read (see ``OfferDraft``).
struct GenerationSpecDraft {
    var count: Int?
    var prefix: DraftPart<String> = .absent
    var length: DraftPart<Int> = .absent
    var alphabet: DraftPart<String> = .absent

    init(count: Int?, prefix: DraftPart<String>, length: DraftPart<Int>, alphabet: DraftPart<String>) {
        self.count = count
        self.prefix = prefix
        self.length = length
        self.alphabet = alphabet
    }

    init(_ spec: CodeGenerationSpec) {
        self.init(
            count: spec.count, prefix: .present(spec.prefix), length: .present(spec.length),
            alphabet: .present(spec.alphabet))
    }

    /// The prefix, with the default for an absent one; `nil` when unreadable.
    var effectivePrefix: String? { prefix.modelValue.map { $0 ?? "" } }
    /// The length, with the default for an absent one; `nil` when unreadable.
    var effectiveLength: Int? { length.modelValue.map { $0 ?? CodeGenerationSpec.defaultLength } }
    /// The alphabet, with the default for an absent one; `nil` when unreadable.
    var effectiveAlphabet: String? { alphabet.modelValue.map { $0 ?? CodeGenerationSpec.defaultAlphabet } }

    /// The description, when every part of it could be read.
    var spec: CodeGenerationSpec? {
        guard let count, let prefix = effectivePrefix, let length = effectiveLength, let alphabet = effectiveAlphabet
        else { return nil }
        return CodeGenerationSpec(count: count, prefix: prefix, length: length, alphabet: alphabet)
    }
}
