import Foundation

extension UUID {
    /// Appends the lower-case 8-4-4-4-12 form, without going through `uuidString`.
    package func appendLowercase(to out: inout [UInt8]) {
        withUnsafeBytes(of: uuid) { bytes in
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
                Hex.append(bytes[index], to: &out)
            }
        }
    }

    /// Whether this is a version 4 (random) UUID with the RFC 9562 variant.
    package var isVersion4: Bool { uuid.6 >> 4 == 4 && uuid.8 >> 6 == 0b10 }

    /// The lower-case string form Apple's signatures use.
    package var lowercasedString: String {
        var out: [UInt8] = []
        out.reserveCapacity(36)
        appendLowercase(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
