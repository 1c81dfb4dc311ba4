import NIOConcurrencyHelpers
import OfferJSON
import OfferServiceContract

extension OpenAPIDocument {
    /// The document as block-style YAML (written by Yams; it loads to the same document as the
    /// JSON), ending in a newline.
    public static func yamlText(includingLedger: Bool = true) -> String {
        OpenAPIYAML.text(of: document(includingLedger: includingLedger))
    }

    /// The document a service serves: without the ledger's operations when it has no ledger, and
    /// with the Get Retention Message endpoint only when it has one, at `retentionPath`. Each
    /// variant is built once.
    package static func document(includingLedger: Bool, retentionPath: String?) -> JSONValue {
        let key = Variant(includingLedger: includingLedger, retentionPath: retentionPath)
        if let document = variants.withLockedValue({ $0[key] }) { return document }
        let document = generate(includingLedger: includingLedger, retentionPath: retentionPath).document
        variants.withLockedValue { $0[key] = document }
        return document
    }

    private struct Variant: Hashable {
        var includingLedger: Bool
        var retentionPath: String?
    }

    private static let variants = NIOLockedValueBox<[Variant: JSONValue]>([:])
}
