import Foundation

/// App Store Connect's `Retry-After` header (RFC 9110): seconds (`120`) or an HTTP date.
package enum RetryAfter {
    /// The wait `header` asks for; `nil` when it is unreadable. A date in the past is no wait.
    package static func delay(_ header: String, now: Date = Date()) -> Duration? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        if text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard text.utf8.count <= 9, let seconds = Int(text) else { return nil }
            return .seconds(seconds)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        guard seconds.isFinite else { return nil }
        return .seconds(Int(min(max(seconds, 0), 1e9).rounded(.up)))
    }
}
