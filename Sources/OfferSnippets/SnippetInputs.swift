/// The values a rendered snippet is filled with: where the service is, and the app, product and
/// offer it is for. The defaults are the demo app of `keys-example/service.json`.
public struct SnippetInputs: Hashable, Sendable {
    /// The service's base URL, such as `https://offers.internal.example.com`; no query or fragment.
    public var baseURL: String
    public var bundleId: String
    public var productId: String
    public var offerIdentifier: String
    /// A transaction ID of the customer, if any. Without one, promotional-offer snippets sign without
    /// a transaction ID and introductory-offer eligibility snippets read it from the environment
    /// variable ``transactionIdVariable``: a snippet never carries a made-up customer's ID.
    public var transactionId: String?
    /// The app account token to sign into a legacy signature (a UUID), if any.
    public var appAccountToken: String?
    /// The environment variable the server snippets read the API key from. Snippets never hold it.
    public var apiKeyVariable: String

    public init(
        baseURL: String = "http://127.0.0.1:8080", bundleId: String = "com.example.offerkit.demo",
        productId: String = "com.example.offerkit.monthly", offerIdentifier: String = "WINBACK50",
        transactionId: String? = nil, appAccountToken: String? = nil,
        apiKeyVariable: String = "OFFERKIT_API_KEY"
    ) {
        self.baseURL = baseURL
        self.bundleId = bundleId
        self.productId = productId
        self.offerIdentifier = offerIdentifier
        self.transactionId = transactionId
        self.appAccountToken = appAccountToken
        self.apiKeyVariable = apiKeyVariable
    }

    /// The environment variable that a snippet rendered without a transaction ID reads it from,
    /// where the operation needs one (introductory-offer eligibility).
    public static let transactionIdVariable = "CUSTOMER_TRANSACTION_ID"

}
