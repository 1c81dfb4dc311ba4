import Foundation
import OfferJSON

/// The `Retry-After` header of an App Store Server API `429`: Apple documents a UNIX time in
/// milliseconds ("when you can next send a request"). A number below 10^11 is read as seconds
/// (RFC 9110), as other servers and proxies send it.
public enum ServerAPIRetryAfter {
    /// The wait `header` asks for from `now`; `nil` when it is unreadable. A time in the past is no wait.
    public static func delay(_ header: String, now: Date = Date()) -> Duration? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard (1...15).contains(text.utf8.count), text.utf8.allSatisfy(\.isASCIIDigit), let value = Int64(text)
        else { return nil }
        if value < 100_000_000_000 { return .seconds(value) }
        let milliseconds = value - Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        return .milliseconds(max(0, milliseconds))
    }
}
