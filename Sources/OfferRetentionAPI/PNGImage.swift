import OfferSigning

/// What Upload Image checks in a PNG before it is sent: the PNG structure (signature, chunks with
/// their CRC-32, `IHDR` first, `IDAT`, `IEND` last), and Apple's rules for the image's size
/// (``ImageSize``: `FULL_SIZE` 3840 × 160…2160, `BULLET_POINT` 1024 × 1024) and "doesn't have
/// transparency": no alpha channel (colour types 4 and 6) and no `tRNS` chunk, even when every
/// pixel is opaque (save such an image as RGB). The compressed pixel data is not inflated here.
public struct PNGImage: Sendable, Equatable {
    /// The largest file OfferKit reads and sends, in bytes (OfferKit's bound; Apple documents none).
    public static let maximumBytes = 50 << 20

    public let width: Int
    public let height: Int
    public let bitDepth: Int
    /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey with alpha, 6 RGB with alpha.
    public let colorType: Int
    /// An alpha channel or a `tRNS` chunk.
    public let hasTransparency: Bool
    public let byteCount: Int

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the PNG's structure; `field` names the file in errors.
    /// - Throws: ``RequestValidationError/invalidFormat(field:expected:)`` saying what is wrong.
    public init(bytes: [UInt8], field: String) throws(RequestValidationError) {
        func refuse(_ found: String) -> RequestValidationError {
            .invalidFormat(field: field, expected: "a PNG image (Apple takes PNG only), found \(found)")
        }
        guard bytes.count <= Self.maximumBytes else {
            throw .tooLarge(field: field, bytes: bytes.count)
        }
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.signature else { throw refuse("no PNG signature") }
        var index = 8
        var header: (width: Int, height: Int, depth: Int, color: Int)?
        var sawData = false
        var dataEnded = false
        var sawPalette = false
        var transparency = false
        var ended = false
        while index < bytes.count {
            guard !ended else { throw refuse("bytes after the IEND chunk") }
            guard bytes.count - index >= 12 else { throw refuse("a chunk cut off at byte \(index)") }
            let length = Self.integer(bytes, index)
            guard length <= 0x7FFF_FFFF, length <= bytes.count - index - 12 else {
                throw refuse("a chunk of \(length) bytes that runs past the end of the file at byte \(index)")
            }
            let type = Array(bytes[(index + 4)..<(index + 8)])
            guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw refuse("a chunk type that is not 4 letters at byte \(index + 4)")
            }
            let name = String(decoding: type, as: UTF8.self)
            let dataStart = index + 8
            let dataEnd = dataStart + length
            let stored = UInt32(Self.integer(bytes, dataEnd))
            guard CRC32.checksum(bytes[(index + 4)..<dataEnd]) == stored else {
                throw refuse("a damaged \(name) chunk (its CRC-32 does not match)")
            }
            if header == nil, name != "IHDR" { throw refuse("\(name) before IHDR (IHDR must come first)") }
            switch name {
            case "IHDR":
                guard header == nil, length == 13 else {
                    throw refuse("an IHDR chunk of \(length) bytes or a second one")
                }
                let width = Self.integer(bytes, dataStart)
                let height = Self.integer(bytes, dataStart + 4)
                let depth = Int(bytes[dataStart + 8])
                let color = Int(bytes[dataStart + 9])
                guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
                    throw refuse("a width or height of 0")
                }
                let depths: [Int: Set<Int>] = [
                    0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
                ]
                guard depths[color]?.contains(depth) == true else {
                    throw refuse("colour type \(color) with bit depth \(depth), which PNG does not define")
                }
                guard bytes[dataStart + 10] == 0, bytes[dataStart + 11] == 0, bytes[dataStart + 12] <= 1 else {
                    throw refuse("an unknown compression, filter or interlace method")
                }
                header = (width, height, depth, color)
            case "PLTE": sawPalette = true
            case "tRNS": transparency = true
            case "IDAT":
                guard !dataEnded else { throw refuse("IDAT chunks that are not consecutive") }
                sawData = true
            case "IEND":
                guard length == 0 else { throw refuse("an IEND chunk with data") }
                ended = true
            default: break
            }
            if name != "IDAT", sawData { dataEnded = true }
            index = dataEnd + 4
        }
        guard let header else { throw refuse("no IHDR chunk") }
        guard sawData else { throw refuse("no image data (IDAT)") }
        guard ended else { throw refuse("no IEND chunk (the file is cut off)") }
        if header.color == 3, !sawPalette { throw refuse("a palette image without its PLTE chunk") }
        width = header.width
        height = header.height
        bitDepth = header.depth
        colorType = header.color
        hasTransparency = transparency || header.color == 4 || header.color == 6
        byteCount = bytes.count
    }

    /// Checks Apple's rules for an image of `size`.
    /// - Throws: ``RequestValidationError/invalidFormat(field:expected:)`` naming `field`.
    public func check(for size: ImageSize, field: String) throws(RequestValidationError) {
        guard size.widths.contains(width), size.heights.contains(height) else {
            throw .invalidFormat(
                field: field,
                expected:
                    "a \(size.rawValue) image of \(size.dimensionsText) pixels (Apple's size), found \(width) × \(height)"
            )
        }
        guard !hasTransparency else {
            throw .invalidFormat(
                field: field,
                expected: "an image without transparency (Apple's rule): no alpha channel and no tRNS chunk, found "
                    + (colorType == 4 || colorType == 6
                        ? "colour type \(colorType), which has an alpha channel (save it as RGB)" : "a tRNS chunk"))
        }
    }

    static func integer(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}

extension RequestValidationError {
    /// A file over ``PNGImage/maximumBytes``.
    static func tooLarge(field: String, bytes: Int) -> RequestValidationError {
        .outOfRange(field: field, expected: "a PNG of at most \(PNGImage.maximumBytes >> 20) MiB, found \(bytes) bytes")
    }
}
