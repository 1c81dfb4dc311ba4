import OfferJSON
import Testing

/// The one reader of enumerated values: any case in, one spelling out, and errors that show what
/// was given without echoing anything long.
@Suite("EnumeratedValue")
struct EnumeratedValueTests {
    enum Environment: String, CaseIterable, EnumeratedValue {
        case production = "PRODUCTION"
        case sandbox = "SANDBOX"
    }

    enum ServerEnvironment: String, CaseIterable, EnumeratedValue {
        case production = "Production"
        case localTesting = "LocalTesting"
    }

    @Test(
        "Apple's spelling in any case is the value; output writes rawValue",
        arguments: [
            "PRODUCTION", "production", "Production", "pRoDuCtIoN",
        ])
    func anyCase(text: String) throws {
        #expect(Environment(anyCase: text) == .production)
        #expect(try Environment.read(text, field: "environment").rawValue == "PRODUCTION")
        #expect(ServerEnvironment(anyCase: text) == .production)
        #expect(ServerEnvironment(anyCase: text)?.rawValue == "Production")
    }

    @Test(
        "only ASCII letters fold: look-alikes, other words and extra characters are no spelling",
        arguments: [
            "ſandbox",  // U+017F LATIN SMALL LETTER LONG S, whose upper case is S
            "SANDBOX ", " SANDBOX", "SAND BOX", "sandbox\u{0}", "", "SANDBOXES", "SANDBO", "ЅANDBOX",  // Cyrillic DZE
        ])
    func notASpelling(text: String) {
        #expect(Environment(anyCase: text) == nil)
    }

    @Test("local testing is Apple's LocalTesting in any case, not a hyphenated variant")
    func compoundName() {
        #expect(ServerEnvironment(anyCase: "localtesting") == .localTesting)
        #expect(ServerEnvironment(anyCase: "LOCALTESTING") == .localTesting)
        #expect(ServerEnvironment(anyCase: "local-testing") == nil)
    }

    @Test("an error names the field, shows the value given and lists the spellings")
    func error() {
        #expect(throws: EnumeratedValueError(field: "environment", given: "staging", accepted: Environment.spellings)) {
            try Environment.read("staging", field: "environment")
        }
        let error = EnumeratedValueError(field: "environment", given: "staging", accepted: Environment.spellings)
        #expect(error.errorDescription == #"environment: "staging" is not "PRODUCTION" or "SANDBOX" (in any case)"#)
        let three = EnumeratedValueError(field: "--format", given: "xml", accepted: ["text", "json", "csv"])
        #expect(three.errorDescription == #"--format: "xml" is not one of "text", "json", "csv" (in any case)"#)
    }

    @Test("a value is shown bounded, with control and invisible characters escaped, never at length")
    func shown() {
        #expect(EnumeratedSpelling.shown("staging") == #""staging""#)
        #expect(EnumeratedSpelling.shown("a\"b\\c") == #""a\"b\\c""#)
        #expect(EnumeratedSpelling.shown("line\nbreak\u{1B}[31m") == #""line\u{a}break\u{1b}[31m""#)
        #expect(EnumeratedSpelling.shown("rtl\u{202E}txt\u{200B}") == #""rtl\u{202e}txt\u{200b}""#)
        #expect(EnumeratedSpelling.shown("\u{85}") == #""\u{85}""#)
        let exactly = String(repeating: "x", count: EnumeratedSpelling.maximumShownLength)
        #expect(EnumeratedSpelling.shown(exactly) == "\"\(exactly)\"")
        // A key or an API key secret pasted into the wrong field is longer: only its length is shown.
        let secret = "ok_" + String(repeating: "S3cr3t", count: 8)
        let shown = EnumeratedSpelling.shown(secret)
        #expect(shown == "a string of \(secret.count) characters (not shown)")
        #expect(!shown.contains("S3cr3t"))
        let error = EnumeratedValueError(field: "environment", given: secret, accepted: Environment.spellings)
        #expect(error.errorDescription?.contains("S3cr3t") == false)
    }

    @Test("canonical finds the listed spelling of a value given in any case")
    func canonical() {
        #expect(EnumeratedSpelling.canonical("p1m", among: ["P1W", "P1M"]) == "P1M")
        #expect(EnumeratedSpelling.canonical("P1D", among: ["P1W", "P1M"]) == nil)
        #expect(EnumeratedSpelling.equalIgnoringCase("Promotional-Offer", "promotional-offer"))
        #expect(!EnumeratedSpelling.equalIgnoringCase("promotional-offer", "promotional_offer"))
    }
}
