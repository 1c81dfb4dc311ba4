import OfferSigning
import SwiftASN1
import X509

/// The root certificates an Apple-signed chain may end in: Apple Root CA – G3 by default, or
/// certificates given as PEM or DER (for tests, or when Apple adds a root).
public enum AppleRootCertificates {
    /// Apple Root CA – G3, the root of the App Store's signing chain (valid 2014-04-30 to
    /// 2039-04-30; SHA-256 fingerprint
    /// 63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79),
    /// as published at https://www.apple.com/certificateauthority/.
    public static let appleRootCAG3PEM = """
        -----BEGIN CERTIFICATE-----
        MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwS
        QXBwbGUgUm9vdCBDQSAtIEczMSYwJAYDVQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9u
        IEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcN
        MTQwNDMwMTgxOTA2WhcNMzkwNDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBS
        b290IENBIC0gRzMxJjAkBgNVBAsMHUFwcGxlIENlcnRpZmljYXRpb24gQXV0aG9y
        aXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49
        AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtf
        TjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA/VhYDKX1DyxNB0cTddqXl5dvMVztK517
        IDvYuVTZXpmkOlEKMaNCMEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySr
        MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gA
        MGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZLuN+yRhHFD/3meoyhpmvOwgPUnPWTxnS4
        at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkLF1vLUagM
        6BgD56KyKA==
        -----END CERTIFICATE-----
        """

    /// Apple Root CA – G3, parsed.
    public static var appleRootCAG3: Certificate {
        // The constant above is a well-formed certificate (tested).
        try! Certificate(pemEncoded: appleRootCAG3PEM)
    }

    /// Every certificate in a PEM text (one or more `-----BEGIN CERTIFICATE-----` blocks).
    public static func certificates(pem: String) throws(AppleVerificationError) -> [Certificate] {
        let blocks: [PEMBlock]
        do {
            blocks = try PEMBlock.blocks(in: pem)
        } catch {
            throw .unreadableRootCertificate(
                "expected PEM certificates (-----BEGIN CERTIFICATE----- blocks), found \(error)")
        }
        guard !blocks.isEmpty else {
            throw .unreadableRootCertificate("no PEM block found (a -----BEGIN CERTIFICATE----- line of its own)")
        }
        var certificates: [Certificate] = []
        for (index, block) in blocks.enumerated() {
            guard block.label == "CERTIFICATE" else {
                throw .unreadableRootCertificate("PEM block \(index + 1) is \(block.label), expected CERTIFICATE")
            }
            certificates.append(try certificate(der: block.der))
        }
        return certificates
    }

    /// A certificate in DER.
    public static func certificate(der: [UInt8]) throws(AppleVerificationError) -> Certificate {
        do {
            return try Certificate(derEncoded: der)
        } catch {
            throw .unreadableRootCertificate("not a DER certificate")
        }
    }
}
