/// Removes anything that looks like key material from a message before it is printed.
///
/// The library never puts key bytes in its errors, but ArgumentParser echoes a rejected option
/// value verbatim (`The value '…' is invalid for '--iat'`), and a key pasted into the wrong
/// option must not reach a terminal or a CI log.
enum Redaction {
    /// Runs of 32 or more standard-base64 characters that mix upper case, lower case and digits
    /// (as every PEM body line does) become `<redacted: N characters>`.
    static func redactKeyMaterial(in text: String) -> String {
        var result = ""
        var run = ""
        func flush() {
            // An App Store Connect path (`/v1/subscriptionOfferCodes/6500000001`) is not a key.
            let isAPIPath = run.hasPrefix("/v1/") || run.hasPrefix("/v2/")
            let looksLikeBase64 =
                !isAPIPath && run.count >= 32 && run.contains(where: \.isUppercase)
                && run.contains(where: \.isLowercase)
                && run.contains(where: \.isNumber)
            result += looksLikeBase64 ? "<redacted: \(run.count) characters>" : run
            run = ""
        }
        for character in text {
            if character.isASCII, character.isLetter || character.isNumber || "+/=".contains(character) {
                run.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }
}
