import Foundation
import OfferRetentionAPI
import OfferSigning
import Testing

/// The PNG checks of Upload Image, on PNG files built here (chunks and CRC-32 computed by this test,
/// the image data not inflated by the check) and one made by Python's zlib.
@Suite("PNGImage")
struct PNGImageTests {
    /// A 2 × 2 RGB PNG written by Python's zlib (Tests/StandIns/test_app_store_server.py's `png(2, 2)`).
    static let python = Array(
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAADklEQVR4nGNwAAMGCAUAFQ4DAdSUe+sAAAAASUVORK5CYII="
        )!)

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    static func be(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        be(UInt32(data.count)) + Array(type.utf8) + data + be(crc(Array(type.utf8) + data))
    }

    /// A PNG's chunks around a stand-in IDAT (the check does not inflate it).
    static func png(
        _ width: UInt32, _ height: UInt32, color: UInt8 = 2, depth: UInt8 = 8, before: [[UInt8]] = [],
        after: [[UInt8]] = []
    ) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", be(width) + be(height) + [depth, color, 0, 0, 0])
        for extra in before { bytes += extra }
        bytes += chunk("IDAT", [0x78, 0x01, 0, 0, 0])
        bytes += chunk("IEND", [])
        for extra in after { bytes += extra }
        return bytes
    }

    @Test func wellFormedFilesAndApplesSizes() throws {
        let python = try PNGImage(bytes: Self.python, field: "f")
        #expect((python.width, python.height, python.colorType, python.hasTransparency) == (2, 2, 2, false))
        for (width, height) in [(3840, 160), (3840, 2160), (3840, 1000)] {
            try PNGImage(bytes: Self.png(UInt32(width), UInt32(height)), field: "f").check(for: .fullSize, field: "f")
        }
        try PNGImage(bytes: Self.png(1024, 1024, color: 0, depth: 16), field: "f").check(for: .bulletPoint, field: "f")
        let palette = Self.png(1024, 1024, color: 3, depth: 4, before: [Self.chunk("PLTE", [1, 2, 3])])
        try PNGImage(bytes: palette, field: "f").check(for: .bulletPoint, field: "f")
        for (width, height, size) in [
            (3839, 160, ImageSize.fullSize), (3840, 159, .fullSize), (3840, 2161, .fullSize),
            (1024, 1023, .bulletPoint),
            (3840, 160, .bulletPoint),
        ] {
            let image = try PNGImage(bytes: Self.png(UInt32(width), UInt32(height)), field: "cat.png")
            #expect(throws: RequestValidationError.self) { try image.check(for: size, field: "cat.png") }
        }
    }

    @Test func transparencyIsRefused() throws {
        for bytes in [
            Self.png(1024, 1024, color: 6), Self.png(1024, 1024, color: 4),
            Self.png(1024, 1024, before: [Self.chunk("tRNS", [0, 0, 0, 0, 0, 0])]),
        ] {
            let image = try PNGImage(bytes: bytes, field: "f")
            #expect(image.hasTransparency)
            #expect(throws: RequestValidationError.self) { try image.check(for: .bulletPoint, field: "f") }
        }
    }

    @Test func damagedFilesAreRefusedNamingTheFile() {
        var badCRC = Self.png(1024, 1024)
        badCRC[30] ^= 1
        let idat = Self.chunk("IDAT", [1])
        let refusals: [([UInt8], String)] = [
            (Array("GIF89a".utf8), "no PNG signature"),
            (badCRC, "CRC-32 does not match"),
            (Array(Self.png(1024, 1024).dropLast(3)), "cut off"),
            (Self.png(1024, 1024, after: [Self.chunk("tEXt", [1])]), "after the IEND"),
            (Array(Self.png(1024, 1024).prefix(33)) + Self.chunk("IEND", []), "no image data"),
            (Self.png(0, 1024), "width or height of 0"),
            (Self.png(1024, 1024, color: 2, depth: 4), "colour type 2 with bit depth 4"),
            (Self.png(1024, 1024, color: 3), "without its PLTE"),
            (Self.png(1024, 1024, before: [idat, Self.chunk("tEXt", [1])]), "not consecutive"),
            (Array(Self.python.prefix(8)) + Self.chunk("IDAT", [1]), "before IHDR"),
        ]
        for (bytes, text) in refusals {
            #expect {
                try PNGImage(bytes: bytes, field: "cat.png")
            } throws: { error in
                let message = (error as? RequestValidationError)?.errorDescription ?? ""
                return message.hasPrefix("cat.png is invalid: expected a PNG image") && message.contains(text)
            }
        }
        #expect(throws: RequestValidationError.self) {
            try PNGImage(bytes: [UInt8](repeating: 0, count: PNGImage.maximumBytes + 1), field: "huge.png")
        }
    }
}
