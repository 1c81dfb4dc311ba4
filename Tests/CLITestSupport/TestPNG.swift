import Foundation

/// PNG files made here, independently of OfferKit's PNG reader: one colour, the pixel data in stored
/// (uncompressed) deflate blocks, CRC-32 and Adler-32 computed here; the App Store Server API stand-in
/// inflates and checks them with Python's zlib.
enum TestPNG {
    /// A `width` × `height` image of colour type `colorType` (2 RGB, 6 RGBA, …), 8 bits per sample,
    /// with `extraChunks` (type, data) before the image data.
    static func make(width: Int, height: Int, colorType: UInt8 = 2, extraChunks: [(String, [UInt8])] = []) -> Data {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)] ?? 3
        let stride = 1 + width * channels
        var raw = [UInt8](repeating: 0x5A, count: height * stride)
        for line in 0..<height { raw[line * stride] = 0 }  // filter type 0
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, colorType, 0, 0, 0]
        out += chunk("IHDR", header)
        if colorType == 3 { out += chunk("PLTE", [0x10, 0x20, 0x30]) }
        for (type, data) in extraChunks { out += chunk(type, data) }
        out += chunk("IDAT", zlibStored(raw))
        out += chunk("IEND", [])
        return Data(out)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var index = 0
        repeat {
            let count = min(65_535, data.count - index)
            let last: UInt8 = index + count == data.count ? 1 : 0
            out.append(last)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[index..<(index + count)]
            index += count
        } while index < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        data.withUnsafeBufferPointer { bytes in
            // Sums stay below 2^32 for 5552 bytes (zlib's NMAX): reduce once per block.
            var start = 0
            while start < bytes.count {
                let end = min(start + 5552, bytes.count)
                for index in start..<end {
                    a &+= UInt32(bytes[index])
                    b &+= a
                }
                a %= 65_521
                b %= 65_521
                start = end
            }
        }
        return out + bigEndian(b << 16 | a)
    }

    static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
