/// A language (or platform) that OfferKit has code snippets for.
///
/// Server languages call the signing service; app languages use what the service returns, in
/// StoreKit. A template folder of your own may add languages: each subfolder is one.
public struct SnippetLanguage: Hashable, Sendable {
    /// Where the snippet's code runs.
    public enum Side: String, Sendable {
        /// A server (or pipeline) that holds an API key and calls `offerkit serve`.
        case server
        /// The app, which never holds a key: it gets the signature from your server.
        case app
    }

    /// The name on the command line and the template subfolder, such as `python`.
    public var id: String
    /// What the snippet is written with, for people: "Python 3 (urllib, standard library)".
    public var title: String
    /// The usual file extension of a rendered snippet, without the dot.
    public var fileExtension: String
    public var side: Side

    public init(id: String, title: String, fileExtension: String, side: Side) {
        self.id = id
        self.title = title
        self.fileExtension = fileExtension
        self.side = side
    }

    /// The languages whose templates ship with OfferKit, in the order they are listed.
    public static let builtIn: [SnippetLanguage] = [
        SnippetLanguage(id: "curl", title: "curl (shell)", fileExtension: "sh", side: .server),
        SnippetLanguage(id: "python", title: "Python 3 (urllib, standard library)", fileExtension: "py", side: .server),
        SnippetLanguage(id: "node", title: "Node.js 18+ (fetch, ES module)", fileExtension: "mjs", side: .server),
        SnippetLanguage(id: "java", title: "Java 17+ (java.net.http)", fileExtension: "java", side: .server),
        SnippetLanguage(id: "swift", title: "Swift (URLSession, Codable)", fileExtension: "swift", side: .server),
        SnippetLanguage(
            id: "swift-storekit", title: "Swift in the app (StoreKit 2 purchase options)", fileExtension: "swift",
            side: .app),
        SnippetLanguage(
            id: "objc-storekit", title: "Objective-C in the app (StoreKit SKPaymentDiscount)", fileExtension: "m",
            side: .app),
    ]

    /// The built-in language `id`, or a language of a template folder of your own (listed as a
    /// server language, with the extension `txt`).
    static func named(_ id: String) -> SnippetLanguage {
        builtIn.first { $0.id == id } ?? SnippetLanguage(id: id, title: id, fileExtension: "txt", side: .server)
    }
}
