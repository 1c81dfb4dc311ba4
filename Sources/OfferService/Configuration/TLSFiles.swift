/// Where the service's TLS certificate chain and private key are (PEM files), and where that was
/// said: the configuration's `tls` section or the `--tls-certificate-chain` and `--tls-private-key`
/// flags. ``ServiceTLS/load(_:now:)`` reads and checks them.
///
/// ```json
/// "tls": { "certificateChain": "fullchain.pem", "privateKey": "privkey.pem" }
/// ```
public struct TLSFiles: Sendable, Equatable {
    /// Where the paths were given, to name them in errors.
    public enum Origin: Sendable, Equatable {
        /// The `tls` section of the configuration file `source`.
        case configuration(source: String)
        /// The command line's `--tls-certificate-chain` and `--tls-private-key`.
        case flags
    }

    /// The certificate chain: PEM certificates, the server's (leaf) certificate first.
    public var certificateChain: String
    /// The leaf's private key: one unencrypted EC or RSA key in PEM.
    public var privateKey: String
    public var origin: Origin

    public init(certificateChain: String, privateKey: String, origin: Origin) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.origin = origin
    }

    /// How errors name the certificate chain: `tls.certificateChain in FILE` or the flag.
    var certificateChainField: String {
        switch origin {
        case .configuration(let source): "tls.certificateChain in \(source)"
        case .flags: "--tls-certificate-chain"
        }
    }

    /// How errors name the private key: `tls.privateKey in FILE` or the flag.
    var privateKeyField: String {
        switch origin {
        case .configuration(let source): "tls.privateKey in \(source)"
        case .flags: "--tls-private-key"
        }
    }
}
