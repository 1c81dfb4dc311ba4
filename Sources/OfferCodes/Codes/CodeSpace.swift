/// A validated ``CodeGenerationSpec`` without its count: the alphabet and prefix as ASCII bytes,
/// the number of random characters, and how many codes of that shape exist.
struct CodeSpace: Sendable {
    var alphabet: [UInt8]
    var prefix: [UInt8]
    var length: Int
    /// `alphabet.count ^ length`, saturated at `Int.max`.
    var size: Int

    /// The most unique codes one may ask for: half of ``size``.
    var maximumUniqueCount: Int { size / 2 }

    init(_ spec: CodeGenerationSpec) throws(CodeGenerationError) {
        var alphabet: [UInt8] = []
        for character in spec.alphabet {
            guard let byte = Self.codeByte(character) else { throw .alphabetCharacterNotAllowed(character) }
            guard !alphabet.contains(byte) else { throw .alphabetCharacterRepeated(character) }
            alphabet.append(byte)
        }
        guard alphabet.count >= 2 else { throw .alphabetTooShort(count: alphabet.count) }
        var prefix: [UInt8] = []
        for character in spec.prefix {
            guard let byte = Self.codeByte(character) else { throw .prefixCharacterNotAllowed(character) }
            prefix.append(byte)
        }
        guard spec.length >= 1 else { throw .lengthTooShort(spec.length) }
        guard spec.length <= CodeGenerator.maximumCodeLength - prefix.count else {
            throw .codeTooLong(prefixLength: prefix.count, length: spec.length)
        }
        var size = 1
        for _ in 0..<spec.length {
            let (product, overflow) = size.multipliedReportingOverflow(by: alphabet.count)
            if overflow {
                size = .max
                break
            }
            size = product
        }
        self.alphabet = alphabet
        self.prefix = prefix
        self.length = spec.length
        self.size = size
    }

    /// Throws unless `count` unique codes may be asked for: at least 0, at most
    /// ``CodeGenerator/maximumCount`` (checked first), and at most ``maximumUniqueCount``.
    func check(count: Int) throws(CodeGenerationError) {
        guard count >= 0 else { throw .countNegative(count) }
        guard count <= CodeGenerator.maximumCount else {
            throw .countAboveMaximum(count: count, maximum: CodeGenerator.maximumCount)
        }
        guard count <= maximumUniqueCount else { throw .countTooLarge(count: count, maximum: maximumUniqueCount) }
    }

    /// The 256-entry rejection-sampling table: byte `b` maps to `alphabet[b % n]` when `b` is
    /// below the largest multiple of `n` that fits in a byte, and to 0 (draw again) otherwise,
    /// so that every character is equally likely (no modulo bias).
    var samplingTable: [UInt8] {
        let limit = 256 - 256 % alphabet.count
        return (0..<256).map { $0 < limit ? alphabet[$0 % alphabet.count] : 0 }
    }

    /// The ASCII byte of an upper-case letter A-Z or digit 0-9, else `nil`.
    static func codeByte(_ character: Character) -> UInt8? {
        guard let byte = character.asciiValue, isCodeByte(byte) else { return nil }
        return byte
    }

    /// Whether `byte` is an upper-case letter A-Z or a digit 0-9 in ASCII.
    static func isCodeByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
