/// The credentials a verified JWS or legacy promotional offer signature must name.
///
/// Each credential given is compared with what the artifact says, after its signature, header and
/// claims verified:
///
/// | credential | compact JWS | legacy signature |
/// |---|---|---|
/// | ``keyId`` | the header's `kid` | the signed `keyId` |
/// | ``issuerId`` | the `iss` claim | — (not signed) |
/// | ``bundleId`` | the `bid` claim | the bundle ID the signature is checked with |
///
/// A difference is ``VerificationError/credentialMismatch(_:)``, listing every credential that
/// differs. A credential the artifact cannot carry (a bundle ID for an App Store Connect API
/// token, which has no `bid`; an issuer ID for a legacy signature, or for an individual key's App
/// Store Connect token) is ``VerificationError/credentialNotApplicable(_:reason:)``: it is never
/// ignored. `nil` is not compared.
///
/// ```swift
/// let verifier = JWSVerifier(
///     key: key, expected: ExpectedCredentials(keyId: "2X9R4HXF34", bundleId: "com.example.app"))
/// let verified = try verifier.verify(jws)   // throws .credentialMismatch when kid or bid differ
/// ```
public struct ExpectedCredentials: Hashable, Sendable {
    /// A credential that can be compared.
    public enum Credential: String, CaseIterable, Hashable, Sendable {
        /// The key ID: a JWS header's `kid`, a legacy signature's `keyId`.
        case keyId
        /// The issuer ID: the `iss` claim.
        case issuerId
        /// The bundle ID: the `bid` claim, or the bundle ID a legacy signature signs.
        case bundleId

        /// `key ID`, `issuer ID`, `bundle ID`.
        public var name: String {
            switch self {
            case .keyId: "key ID"
            case .issuerId: "issuer ID"
            case .bundleId: "bundle ID"
            }
        }

        /// The header member or claim of a compact JWS that names this credential.
        public var claim: String {
            switch self {
            case .keyId: "kid"
            case .issuerId: "iss"
            case .bundleId: "bid"
            }
        }
    }

    /// The key ID (10 characters) the artifact must name.
    public var keyId: String?
    /// The issuer ID (a UUID) the artifact must name, compared exactly as written.
    public var issuerId: String?
    /// The bundle ID the artifact must name.
    public var bundleId: String?

    /// Expects each credential given; `nil` is not compared.
    public init(keyId: String? = nil, issuerId: String? = nil, bundleId: String? = nil) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
    }

    /// The value expected for `credential`, if one is.
    public subscript(credential: Credential) -> String? {
        switch credential {
        case .keyId: keyId
        case .issuerId: issuerId
        case .bundleId: bundleId
        }
    }

    /// One credential that differs: the artifact's `field` holds `found` (`nil`: nothing), not
    /// `expected`.
    public struct Mismatch: Hashable, Sendable {
        /// The credential that differs.
        public let credential: Credential
        /// The header member or claim (`kid`, `iss`, `bid`), or for a legacy signature the
        /// member of its JSON object (`keyId`, `bundleId`).
        public let field: String
        /// What the artifact names; `nil` when it names nothing there.
        public let found: String?
        /// What the verifier was given to expect.
        public let expected: String

        /// A difference between `found` in the artifact's `field` and `expected`.
        public init(credential: Credential, field: String, found: String?, expected: String) {
            self.credential = credential
            self.field = field
            self.found = found
            self.expected = expected
        }

        /// `kid is "X", expected "MYKEY00001"`.
        public var description: String {
            "\(field) is \(found.map { "\"\(Self.clip($0))\"" } ?? "missing"), expected \"\(expected)\""
        }

        /// A value read from the artifact, for a message: control characters as `?`, at most 64
        /// characters.
        static func clip(_ text: String) -> String {
            let printable = String(
                text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
            return printable.count > 64 ? String(printable.prefix(64)) + "…" : printable
        }
    }

    /// Compares the expected credentials with `found` (what the artifact names, by credential).
    /// - Throws: ``VerificationError/credentialNotApplicable(_:reason:)`` for the first expected
    ///   credential `notCarried` gives a reason for, else
    ///   ``VerificationError/credentialMismatch(_:)`` with every credential that differs.
    func compare(
        found: (Credential) -> (field: String, value: String?), notCarried: (Credential) -> String?
    ) throws(VerificationError) {
        let given = Credential.allCases.compactMap { credential in self[credential].map { (credential, $0) } }
        for (credential, _) in given {
            if let reason = notCarried(credential) { throw .credentialNotApplicable(credential, reason: reason) }
        }
        var mismatches: [Mismatch] = []
        for (credential, expected) in given {
            let (field, value) = found(credential)
            if value != expected {
                mismatches.append(Mismatch(credential: credential, field: field, found: value, expected: expected))
            }
        }
        if !mismatches.isEmpty { throw .credentialMismatch(mismatches) }
    }
}
