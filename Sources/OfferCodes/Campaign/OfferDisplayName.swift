/// An offer's customer-facing title in one or more languages: the offer's `displayName` in the
/// campaign file, such as `{"en": "Three months free", "ja": "3か月無料"}`.
///
/// Messages for customers show this title, never the offer's `referenceName` (App Store Connect's
/// internal name). Language tags compare case-insensitively, `_` standing for `-`, so `zh_hans`
/// names the same language as `zh-Hans`.
public struct OfferDisplayName: Sendable, Equatable {
    /// The titles by language tag, with the tags as the campaign file writes them.
    public var titles: [String: String]

    /// The titles by language tag (empty when the offer has no `displayName`).
    public init(_ titles: [String: String] = [:]) {
        self.titles = titles
    }

    /// Whether the offer has no title in any language.
    public var isEmpty: Bool { titles.isEmpty }

    /// The title whose tag names `language` (case-insensitively, `_` as `-`), or `nil`.
    public func title(for language: String) -> String? {
        let wanted = Self.comparisonKey(language)
        return titles.first { Self.comparisonKey($0.key) == wanted }?.value
    }

    /// The title a message in `language` shows: that language's, else the English (`en`) one,
    /// else `nil` (the message then names no offer).
    public func messageTitle(for language: String) -> String? {
        title(for: language) ?? title(for: "en")
    }

    /// `tag` in the form tags are compared in: lower-case, with `_` as `-`.
    static func comparisonKey(_ tag: String) -> String {
        String(tag.map { $0 == "_" ? "-" : $0 }).lowercased()
    }
}
