/// Removes anything that looks like key material from a message before it is printed.
///
/// The library never puts key bytes in its errors, but ArgumentParser echoes a rejected option
/// value verbatim (`The value '…' is invalid for '--iat'`), and a key pasted into the wrong
/// option must not reach a terminal or a CI log.
package enum Redaction {
    /// Runs of 32 or more standard-base64 characters that mix upper case, lower case and digits
    /// (as every PEM body line does) become `<redacted: N characters>`, except App Store Connect
    /// paths (``isAPIPath(_:)``).
    package static func redactKeyMaterial(in text: String) -> String {
        var result = ""
        var run = ""
        func flush() {
            let looksLikeBase64 =
                !isAPIPath(run) && run.count >= 32 && run.contains(where: \.isUppercase)
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

    /// An App Store Connect path such as `/v1/subscriptionOfferCodes/6500000001/customCodes`, or an App
    /// Store Server API path such as `/inApps/v1/messaging/message/3f2b1c4e-…`, which errors name and
    /// which is not a key: `/v1/`, `/v2/` or `/inApps/v1/`, then segments each of letters only or of digits
    /// only (key material pasted after `/v1/` mixes them, and stays redacted); after `/inApps/v1/` the last
    /// segment may also be the first group of a UUID (at most 8 lower-case hex digits, which the UUID's
    /// `-` ends).
    package static func isAPIPath(_ run: String) -> Bool {
        let segments: [Substring]
        if run.hasPrefix("/v1/") || run.hasPrefix("/v2/") {
            segments = run.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
        } else if run.hasPrefix("/inApps/v1/") {
            segments = run.dropFirst(11).split(separator: "/", omittingEmptySubsequences: false)
            if let last = segments.last, segments.count > 1, (1...8).contains(last.count),
                last.allSatisfy({ $0.isHexDigit && !$0.isUppercase })
            {
                return segments.dropLast().allSatisfy(isPlainSegment)
            }
        } else {
            return false
        }
        return segments.allSatisfy(isPlainSegment)
    }

    /// A path segment of letters only or of digits only.
    private static func isPlainSegment(_ segment: Substring) -> Bool {
        !segment.isEmpty && (segment.allSatisfy(\.isLetter) || segment.allSatisfy(\.isNumber))
    }
}
