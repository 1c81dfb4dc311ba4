import Foundation
import OfferSigning

extension FuzzTarget {
    /// Loads key bytes; a key that loads must write a PKCS#8 PEM that loads to the same key.
    static func fuzzKey(_ input: [UInt8]) {
        let key: SigningKey
        do {
            key = try SigningKey(bytes: input, keyId: FuzzFixtures.keyId)
        } catch {
            _ = error.localizedDescription
            return
        }
        let again = try? SigningKey(pem: key.privateKeyPKCS8PEM, keyId: FuzzFixtures.keyId)
        check(again?.jwkThumbprint == key.jwkThumbprint, "a loaded key does not survive its own PKCS#8 PEM")
    }
}
