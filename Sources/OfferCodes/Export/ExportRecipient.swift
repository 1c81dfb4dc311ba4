/// A person who receives one code in an export with recipients.
public struct ExportRecipient: Sendable, Equatable {
    /// Who the person is in the ledger: the opaque recipient id their code is recorded under (see
    /// ``RecipientId``), such as a user id or an email hash.
    public var id: String
    /// How the message greets the person, or `nil` for a greeting without a name. Must not be
    /// blank when given.
    public var name: String?
    /// The message's language (one of ``CodeExporter/languages``), or `nil` for the export's language.
    public var language: String?

    /// A recipient whose name is also their recipient id (the `name` or `name,language` lines of
    /// a recipients file).
    public init(name: String, language: String? = nil) {
        self.init(id: name, name: name, language: language)
    }

    /// A recipient with an id of its own and, optionally, a name to greet them by.
    public init(id: String, name: String?, language: String? = nil) {
        self.id = id
        self.name = name
        self.language = language
    }
}
