import Foundation

/// The times OfferKit signs and accepts in `iat`, `exp` and legacy `timestamp`s, and the only
/// conversions between `Date` and whole seconds or milliseconds.
///
/// Every time is range-checked before any arithmetic or conversion: a `Date` far in the future
/// would trap converting to `Int64`, `iat + lifetime` could overflow, and a `Double` loses
/// whole seconds above 2^53. Inside the range every value is exact, in `Int64` and in `Double`.
///
/// - Signing: from ``earliestSeconds`` (2000-01-01) to ``latestSeconds`` (9999-12-31). Nothing
///   earlier is a real issue time: it is a clock that was never set, or seconds given where
///   milliseconds were meant (a legacy timestamp of 1700000000 is 1970-01-20).
/// - Verifying: from ``earliestSeconds`` to ``allowedSkewSeconds`` (one day) past the verifier's
///   clock.
public enum ClaimTime {
    /// 2000-01-01T00:00:00Z in seconds since 1970: the earliest time signed or accepted.
    public static let earliestSeconds: Int64 = 946_684_800
    /// 9999-12-31T23:59:59Z in seconds since 1970: the latest time signed.
    public static let latestSeconds: Int64 = 253_402_300_799
    /// How far past the verifier's clock an issue time may be: one day, for clock skew.
    public static let allowedSkewSeconds: Int64 = 86_400

    /// What a time in seconds must be, for messages.
    static let secondsRange =
        "whole seconds since 1970 from \(earliestSeconds) (2000-01-01) to \(latestSeconds) (9999-12-31)"
    /// What a time in milliseconds must be, for messages.
    static let millisecondsRange =
        "milliseconds since 1970 from \(earliestSeconds * 1000) (2000-01-01) to \(latestSeconds * 1000 + 999) (9999-12-31)"

    /// `seconds`, when it is in the signing range.
    /// - Throws: ``RequestValidationError/outOfRange(field:expected:)`` naming `field` and the value.
    public static func checkSeconds(_ seconds: Int64, field: String) throws(RequestValidationError) -> Int64 {
        guard seconds >= earliestSeconds, seconds <= latestSeconds else {
            throw .outOfRange(field: field, expected: "\(secondsRange), found \(seconds)")
        }
        return seconds
    }

    /// `milliseconds`, when it is in the signing range.
    /// - Throws: ``RequestValidationError/outOfRange(field:expected:)`` naming `field` and the
    ///   value, and saying when it looks like seconds.
    public static func checkMilliseconds(_ milliseconds: Int64, field: String) throws(RequestValidationError) -> Int64 {
        guard milliseconds >= earliestSeconds * 1000, milliseconds <= latestSeconds * 1000 + 999 else {
            let hint =
                milliseconds >= earliestSeconds && milliseconds <= latestSeconds
                ? "; it looks like seconds: multiply by 1000" : ""
            throw .outOfRange(field: field, expected: "\(millisecondsRange), found \(milliseconds)\(hint)")
        }
        return milliseconds
    }

    /// `date` in whole seconds since 1970, rounded down, when it is in the signing range.
    public static func seconds(_ date: Date, field: String) throws(RequestValidationError) -> Int64 {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, interval >= Double(earliestSeconds), interval < Double(latestSeconds + 1) else {
            throw .outOfRange(field: field, expected: "\(secondsRange), found \(describe(interval))")
        }
        return Int64(interval.rounded(.down))
    }

    /// `date` in whole milliseconds since 1970, rounded down, when it is in the signing range.
    public static func milliseconds(_ date: Date, field: String) throws(RequestValidationError) -> Int64 {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, interval >= Double(earliestSeconds), interval < Double(latestSeconds + 1) else {
            throw .outOfRange(field: field, expected: "\(millisecondsRange), found \(describe(interval)) s")
        }
        return Int64((interval * 1000).rounded(.down))
    }

    /// The `Date` of whole seconds in the signing range (exact: below 2^53).
    static func date(seconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Why a claimed issue time is not believable, or `nil` when it is: before ``earliestSeconds``
    /// or more than ``allowedSkewSeconds`` after `now`.
    /// - Parameter perSecond: 1 for `iat` in seconds, 1000 for a legacy timestamp in milliseconds.
    static func issuedAtProblem(_ value: Int64, now: Date, perSecond: Int64 = 1) -> String? {
        let unit = perSecond == 1 ? "seconds" : "milliseconds"
        let earliest = earliestSeconds * perSecond
        if value < earliest { return "\(unit) since 1970 from \(earliest) (2000-01-01) on, found \(value)" }
        let nowInterval = now.timeIntervalSince1970
        let nowSeconds =
            nowInterval.isFinite
            ? Int64(min(max(nowInterval, Double(earliestSeconds)), Double(latestSeconds)).rounded(.down))
            : latestSeconds
        let latest = (nowSeconds + allowedSkewSeconds) * perSecond + (perSecond - 1)
        if value > latest {
            return "\(unit) since 1970 no more than a day ahead of this verifier's clock (at most \(latest)), "
                + "found \(value)"
        }
        return nil
    }

    private static func describe(_ interval: Double) -> String {
        guard interval.isFinite, abs(interval) < 1e18 else { return "\(interval)" }
        return String(Int64(interval.rounded(.down)))
    }
}
