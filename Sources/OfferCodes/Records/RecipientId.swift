/// The rules for a recipient id: the opaque text a caller chooses to name whoever receives a
/// code (a user id, an email hash, a name). It is compared byte for byte.
public enum RecipientId {
    /// The longest recipient id, in UTF-8 bytes.
    public static let maximumBytes = 256

    /// What is wrong with `text` as a recipient id, or `nil` when it is fine: it must not be
    /// empty, longer than ``maximumBytes`` UTF-8 bytes, or hold control characters (line breaks,
    /// tabs, NUL).
    public static func problem(_ text: String) -> String? {
        if text.isEmpty { return "is empty; expected an id such as a user id, an email hash or a name" }
        let bytes = text.utf8.count
        if bytes > maximumBytes {
            return "is \(bytes) bytes long; expected at most \(maximumBytes) bytes (UTF-8)"
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "holds a control character (a line break, tab or NUL); expected printable text"
        }
        return nil
    }
}
