import Foundation

/// A file of interop vectors.
public struct InteropVectorSet: Codable, Hashable, Sendable {
    /// What the file is and how to use it.
    public var about: String
    public var vectors: [InteropVector]

    public init(
        about: String = """
        OfferKit interop vectors. For each case: sign `inputs` with the key whose public half is \
        `publicKeyPem`, using `nonce` and `iat` (seconds) or `timestamp` (milliseconds). An \
        implementation matches when its header, payload (or legacy message) bytes equal `expected` \
        exactly and its signature verifies; ECDSA signatures are randomised, so only \
        `expected.signature` verifying is required, not equality.
        """,
        vectors: [InteropVector]
    ) {
        self.about = about
        self.vectors = vectors
    }

    /// The set as the JSON of `offerkit-vectors.json`: pretty-printed, sorted keys, unescaped
    /// slashes, ending with a line break.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}
