import Foundation

/// The service's API keys, and the check of a request's `Authorization` header against them.
public struct APIKeyStore: Sendable {
    public let keys: [APIKey]

    public init(keys: [APIKey]) { self.keys = keys }

    /// The key whose secret is the bearer token in `authorization`, or `nil`.
    ///
    /// The token's SHA-256 digest is compared with every key's digest in constant time, and all
    /// keys are compared whatever matches, so timing tells nothing about the secrets.
    public func authenticate(authorization: String?) -> APIKey? {
        guard let token = Self.bearerToken(authorization) else { return nil }
        let presented = APIKey.digest(of: token)
        var match: APIKey?
        for key in keys where Self.constantTimeEqual(key.digest, presented) {
            match = key
        }
        return match
    }

    /// The token of a `Bearer` authorization (scheme in any case, RFC 9110), or `nil`.
    /// Read from the UTF-8 bytes: this runs on every request.
    static func bearerToken(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let bytes = Array(authorization.utf8)
        guard let schemeStart = bytes.firstIndex(where: { $0 != UInt8(ascii: " ") }),
            let schemeEnd = bytes[schemeStart...].firstIndex(of: UInt8(ascii: " ")),
            ASCIIText.equalIgnoringCase(bytes[schemeStart..<schemeEnd], "bearer")
        else { return nil }
        let token = ASCIIText.trimmingBlanks(bytes[schemeEnd...])
        return token.isEmpty ? nil : String(decoding: token, as: UTF8.self)
    }

    /// Equality of two byte strings in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
