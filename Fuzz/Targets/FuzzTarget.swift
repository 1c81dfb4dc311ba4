import OfferJSON

/// The parsers of outside input, one fuzz entry point each.
///
/// A target takes any bytes and must neither crash nor break the invariant it checks (a failed
/// check traps with a message, which libFuzzer reports as a crash). The same entry points run
/// under libFuzzer (`Fuzz/run`), in the replay tool (`offerkit-fuzz TARGET FILE…`) and in the
/// tests that replay the committed corpus.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// `JSONValue.parse`: the strict JSON parser behind verification, campaigns and batches.
    case json
    /// `CampaignValidator.validate(json:)` and `CampaignReader.read(json:)`: a campaign file.
    case campaign
    /// `SigningKey(bytes:keyId:)`: PEM, SEC1, base64 or DER key bytes.
    case key
    /// `JWSVerifier.verify(_:)`: a compact JWS, against the demo key.
    case jws
    /// `JWSVerifier.verify(_:)` past the signature: the input is a payload (or `header NUL
    /// payload`), signed here with the demo key so that the header and claim rules see it.
    case jwsClaims = "jws-claims"
    /// `JWSVerifier.verify(_:bundleId:)`: a legacy promotional offer signature as JSON, read by
    /// Foundation's decoder and by `LegacyPromotionalOfferSignature.read(json:)` (`verify --legacy-signature-file`).
    case legacySignature = "legacy-signature"
    /// `AppleCodeCSV.parse`: App Store Connect's one-time-use code CSV.
    case appleCSV = "apple-csv"
    /// `AdvancedCommerce.InAppRequest.decode(json:)`: an Advanced Commerce request document.
    case advancedCommerce = "advanced-commerce"
    /// `BatchSigner.process(line:lineNumber:)`: one line of `offerkit batch` input.
    case batch
    /// `AppCredentialsEntry.parse(_:)`: a configuration file's apps (the CLI config, the service's `apps`).
    case credentials
    /// `ExportRecipient.list(csv:)`: a `--recipients` CSV file.
    case recipients
    /// `LedgerLocation(parsing:)`: a `--ledger` path or URL, whose password must never be shown.
    case ledgerLocation = "ledger-location"
    /// `LedgerTimestamp.date(_:)`: a time as a ledger holds it (SQLite's and PostgreSQL's forms).
    case ledgerTimestamp = "ledger-timestamp"
    /// `PostgresPasswordFile.password(in:for:)`: PostgreSQL's password file (`~/.pgpass`, `PGPASSFILE`).
    case pgpass
    /// What `codes apply` reads from App Store Connect: error bodies, list pages, `201` bodies,
    /// `X-Rate-Limit`, `Retry-After`, and error pointers mapped to campaign paths.
    case connectAnswers = "connect-answers"
    /// `AppleCompactJWS(_:)` and the payload types of `AppleSignedDataVerifier`: a JWS the App
    /// Store signed (`verify-apple`).
    case appleSigned = "apple-signed"
    /// What `offerkit retention` reads: Apple's Retention Messaging answers and error bodies,
    /// `Retry-After`, a PNG to upload, a message body file.
    case retentionAPI = "retention-api"
    /// `RetentionRules(json:path:)`: the Get Retention Message endpoint's rules (`retention.apps`).
    case retentionRules = "retention-rules"
    /// `RealtimeRequestBody.signedPayload(in:)`: the body the App Store posts to the endpoint.
    case realtimeRequestBody = "realtime-request-body"
    /// `RealtimeAnswer(body:)`: an endpoint's answer, as `offerkit retention try-endpoint` reads it.
    case realtimeAnswer = "realtime-answer"
    /// `PEMBlock.scan(_:)` and `blocks(in:)`: private keys, root certificates and TLS files.
    case pem
    /// The bytes of a connection to `offerkit serve`: NIO's HTTP/1.1 parser behind the service's
    /// `ConnectionGuard` and the chunk-size watcher it puts in front of the parser.
    case httpFraming = "http-framing"

    /// Runs one input through the target.
    package func run(_ input: [UInt8]) {
        switch self {
        case .json: Self.fuzzJSON(input)
        case .campaign: Self.fuzzCampaign(input)
        case .key: Self.fuzzKey(input)
        case .jws: Self.fuzzJWS(input)
        case .jwsClaims: Self.fuzzJWSClaims(input)
        case .legacySignature: Self.fuzzLegacySignature(input)
        case .appleCSV: Self.fuzzAppleCSV(input)
        case .advancedCommerce: Self.fuzzAdvancedCommerce(input)
        case .batch: Self.fuzzBatch(input)
        case .credentials: Self.fuzzCredentials(input)
        case .recipients: Self.fuzzRecipients(input)
        case .ledgerLocation: Self.fuzzLedgerLocation(input)
        case .ledgerTimestamp: Self.fuzzLedgerTimestamp(input)
        case .pgpass: Self.fuzzPasswordFile(input)
        case .connectAnswers: Self.fuzzConnectAnswers(input)
        case .appleSigned: Self.fuzzAppleSigned(input)
        case .retentionAPI: Self.fuzzRetentionAPI(input)
        case .retentionRules: Self.fuzzRetentionRules(input)
        case .realtimeRequestBody: Self.fuzzRealtimeRequestBody(input)
        case .realtimeAnswer: Self.fuzzRealtimeAnswer(input)
        case .pem: Self.fuzzPEM(input)
        case .httpFraming: Self.fuzzHTTPFraming(input)
        }
    }

    /// Loads what the target shares between inputs (the demo key, the signer), so that the first
    /// input is not slower than the others.
    package func prepare() {
        switch self {
        case .jws, .legacySignature, .batch: _ = FuzzFixtures.signer
        case .jwsClaims: (_, _) = (FuzzFixtures.signer, FuzzFixtures.privateKey)
        default: break
        }
    }

    /// Traps with `message` when `condition` is false: a broken invariant is a crash to libFuzzer.
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant broken: \(message())") }
    }
}
