import OfferCodes
import OfferKitSigningCLI

extension CodesExport {
    /// One note on stderr per offer of a messages export that has no `displayName` for a language
    /// its messages are in (the export's, and the recipients'): what the messages show instead, and
    /// how to add the title.
    static func noteMissingTitles(
        _ exporter: CodeExporter, campaign: Campaign, campaignPath: String, offer: String?,
        recipients: [ExportRecipient]?
    ) {
        for definition in campaign.offers where offer == nil || definition.referenceName == offer {
            let missing = exporter.languagesWithoutTitle(offer: definition.referenceName, recipients: recipients)
            guard !missing.isEmpty else { continue }
            Deprecation.note(
                titleNote(
                    offer: definition.referenceName, missing: missing,
                    hasEnglishTitle: definition.displayName.title(for: "en") != nil, campaignPath: campaignPath))
        }
    }

    /// `note: offer "…" has no displayName for ja, …` (the reference name in full: validation
    /// refuses control characters in it).
    static func titleNote(offer: String, missing: [String], hasEnglishTitle: Bool, campaignPath: String) -> String {
        let languages = missing.joined(separator: ", ")
        let effect =
            hasEnglishTitle
            ? "its \(languages) messages show its English (\"en\") title"
            : "its \(languages) messages name no offer"
        let example = missing.map { "\"\($0)\": \"…\"" }.joined(separator: ", ")
        let file = campaignPath == "-" ? "the campaign file" : campaignPath
        return "note: offer \"\(offer)\" has no displayName for \(languages), so \(effect); add "
            + "\"displayName\": {\(example)} to the offer in \(file) (the title customers read; its referenceName "
            + "is never shown)"
    }
}
