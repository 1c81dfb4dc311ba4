import HTTPTypes

/// Reads a request's `Content-Length` without allocating: it runs for every request (on the event
/// loop, in ``ConnectionGuard``) and again for every body that is read.
enum ContentLength {
    /// Whether `fields` announce a body longer than `limit` bytes. A value of decimal digits too
    /// large for `Int` is longer than any limit; any other malformed value is left to the HTTP
    /// parser, which refuses it before a request gets here.
    static func exceeds(_ limit: Int, in fields: HTTPFields) -> Bool {
        value(in: fields).map { $0 > limit } ?? false
    }

    /// Whether the decimal `value` is larger than `limit` (surrounding blanks are allowed).
    static func exceeds(_ limit: Int, value: String.UTF8View) -> Bool {
        length(value).map { $0 > limit } ?? false
    }

    /// The length `fields` announce: their `Content-Length` of decimal digits (blanks around them
    /// allowed), `Int.max` for one too large for `Int`; `nil` without one, or for another value.
    static func value(in fields: HTTPFields) -> Int? {
        // NIO's parser (llhttp) refuses a request with two Content-Length fields: the first is the one.
        for field in fields where field.name == .contentLength {
            return length(field.value.utf8)
        }
        return nil
    }

    /// The decimal `value` (surrounding blanks allowed), `Int.max` when it is larger; `nil` for
    /// anything but digits.
    private static func length(_ value: String.UTF8View) -> Int? {
        var length = 0
        var digits = 0
        for byte in value {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times10, overflow1) = length.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                length = overflow1 || overflow2 ? .max : sum
                digits += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                continue
            default:
                return nil
            }
        }
        return digits > 0 ? length : nil
    }
}
