import Foundation

/// One file of an exported vector set: its name inside the folder and its bytes.
///
/// ``InteropVectorBuilder/standardFiles()`` makes the whole set; `offerkit vectors --out DIR`
/// writes it, and the project's own `Tests/Vectors/` is that command's output for the demo key.
public struct InteropVectorFile: Hashable, Sendable {
    /// The vectors themselves (``InteropVectorSet`` as pretty JSON with sorted keys).
    public static let vectorsName = "offerkit-vectors.json"
    /// How to check an implementation against the vectors.
    public static let readmeName = "README.md"
    /// The public half of the signing key, for `openssl` and JWT libraries.
    public static let publicKeyName = "public-key.pem"

    /// The file name, without a folder.
    public var name: String
    public var contents: Data

    public init(name: String, contents: Data) {
        self.name = name
        self.contents = contents
    }
}

extension InteropVectorBuilder {
    /// The standard vectors for this builder's key, issuer and bundle ID, as the files of one
    /// folder: ``InteropVectorFile/vectorsName``, ``InteropVectorFile/readmeName`` and
    /// ``InteropVectorFile/publicKeyName``.
    ///
    /// Everything but the ECDSA signatures is the same on every run for the same key: the nonces
    /// and clock are fixed by the cases.
    public func standardFiles() throws -> [InteropVectorFile] {
        let set = InteropVectorSet(vectors: try Self.standardCases.map(vector(for:)))
        return [
            InteropVectorFile(name: InteropVectorFile.vectorsName, contents: try set.jsonData()),
            InteropVectorFile(name: InteropVectorFile.readmeName, contents: Data(set.readme().utf8)),
            InteropVectorFile(
                name: InteropVectorFile.publicKeyName, contents: Data((signer.key.publicKeyPEM + "\n").utf8)),
        ]
    }
}
