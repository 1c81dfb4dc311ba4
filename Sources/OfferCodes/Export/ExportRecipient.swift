/// A person who receives one code in a messages export.
public struct ExportRecipient: Sendable, Equatable {
    /// How the message greets the person. Must not be blank.
    public var name: String
    /// The message's language (one of ``CodeExporter/languages``), or `nil` for the export's language.
    public var language: String?

    public init(name: String, language: String? = nil) {
        self.name = name
        self.language = language
    }
}
