import Testing

@testable import OfferCodes

@Suite("Code generation spec: checking a code against it")
struct CodeGenerationSpecTests {
    static let spec = CodeGenerationSpec(count: 3, prefix: "VIP", length: 4, alphabet: "ABCD23")

    @Test func codesTheGeneratorMakesFitTheirSpec() throws {
        for spec in [Self.spec, CodeGenerationSpec(count: 50), CodeGenerationSpec(count: 1, prefix: "", length: 4)] {
            var generator = try CodeGenerator(spec: spec, random: .seeded(2027))
            for _ in 0..<200 {
                let code = try generator.next()
                #expect(spec.problem(with: code) == nil, "\(code)")
            }
        }
        #expect(Self.spec.problem(with: "VIPAB23") == nil)
    }

    @Test(
        "a code that breaks the prefix, the length or the alphabet is named with the rule and the member",
        arguments: [
            ("XYZABCD", #""XYZABCD" does not start with the batch's prefix "VIP" (generate.prefix)"#),
            ("VIABCD", #""VIABCD" does not start with the batch's prefix "VIP" (generate.prefix)"#),
            ("VIPABC", #""VIPABC" has 3 characters after the prefix, but the batch generates 4 (generate.length)"#),
            ("VIPABCDA", #""VIPABCDA" has 5 characters after the prefix, but the batch generates 4 (generate.length)"#),
            ("VIP", #""VIP" has 0 characters after the prefix, but the batch generates 4 (generate.length)"#),
            (
                "VIPAB0C",
                #""VIPAB0C" has "0", which is not in the batch's alphabet "ABCD23" (generate.alphabet)"#
            ),
            (
                "VIPAB C",
                #""VIPAB C" has a space, which is not in the batch's alphabet "ABCD23" (generate.alphabet)"#
            ),
            (
                "VIPABÉC",
                #""VIPABÉC" has U+00C9, which is not in the batch's alphabet "ABCD23" (generate.alphabet)"#
            ),
            (
                "VIPabcd",
                #""VIPabcd" has "a", which is not in the batch's alphabet "ABCD23" (generate.alphabet); "#
                    + #"codes are upper-case: write "VIPABCD""#
            ),
            (
                "vipabcd",
                #""vipabcd" does not start with the batch's prefix "VIP" (generate.prefix); "#
                    + #"codes are upper-case: write "VIPABCD""#
            ),
            ("", #""" does not start with the batch's prefix "VIP" (generate.prefix)"#),
        ])
    func problem(code: String, message: String) {
        #expect(Self.spec.problem(with: code) == message)
    }

    @Test func anEmptyPrefixTakesAnyStartAndControlCharactersAreShownEscaped() {
        let spec = CodeGenerationSpec(count: 1, prefix: "", length: 4, alphabet: "AB")
        #expect(spec.problem(with: "ABBA") == nil)
        #expect(
            spec.problem(with: "AB\nA")
                == #""ABU+000AA" has U+000A, which is not in the batch's alphabet "AB" (generate.alphabet)"#)
    }
}
