/// Finds, in one pass over a text, the first leaked window of each of some secrets (``OutputLog``):
/// a 16-byte window of a secret's base64 body, as written or with the text's whitespace taken
/// out (a key printed over several lines).
///
/// The text's last 16 bytes are kept in two words that shift as each byte is read, so a window
/// costs no copy; a window is looked up only when all its bytes occur in some secret and its hash
/// is marked in a 2^20-bit filter. The suite scans every stdout and stderr of every run against
/// every key it knows; scanning each window with a slice and a set lookup took a tenth of the
/// suite's CPU time in a debug build.
struct LeakScanner {
    typealias Window = OutputLog.Window

    /// Each secret window, and the indices (in the secrets given) of the secrets that have it.
    private var owners: [Window: [Int]] = [:]
    /// The bytes that occur in some secret window: a window with any other byte cannot leak.
    private var allowed = [Bool](repeating: false, count: 256)
    /// A bit per hash of each secret window (``bit(of:)``).
    private var filter = [UInt64](repeating: 0, count: 1 << 14)
    /// The secrets it scans for, in the order of the indices it reports.
    let secrets: [OutputLog.Secret]

    init(_ secrets: [OutputLog.Secret]) {
        self.secrets = secrets
        for (index, secret) in secrets.enumerated() {
            for window in secret.windows {
                owners[window, default: []].append(index)
                let bit = Self.bit(of: window)
                filter[bit >> 6] |= 1 << UInt64(bit & 63)
                for shift in stride(from: 0, to: 64, by: 8) {
                    allowed[Int(truncatingIfNeeded: window.high >> UInt64(shift)) & 0xFF] = true
                    allowed[Int(truncatingIfNeeded: window.low >> UInt64(shift)) & 0xFF] = true
                }
            }
        }
    }

    /// The first leaked window of each secret found in `text`, by the secret's index: a window as
    /// written first, else one across whitespace (tab, line feed, carriage return, space).
    func firstLeaks(in text: String) -> [Int: String] {
        guard !secrets.isEmpty else { return [:] }
        var text = text
        return text.withUTF8 { scan($0) }
    }

    private struct Register {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var length = 0

        mutating func push(_ byte: UInt8) {
            high = high << 8 | low >> 56
            low = low << 8 | UInt64(byte)
            length += 1
        }

        var window: Window { Window(high: high, low: low) }
    }

    private func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int: String] {
        var written = Register()
        var joined = Register()
        var firstWritten: [Int: String] = [:]
        var firstJoined: [Int: String] = [:]
        func look(_ register: Register, into found: inout [Int: String]) {
            let window = register.window
            let bit = Self.bit(of: window)
            guard filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0, let indices = owners[window] else { return }
            for index in indices where found[index] == nil { found[index] = Self.text(of: window) }
        }
        for byte in bytes {
            let isSpace = byte == 9 || byte == 10 || byte == 13 || byte == 32
            if allowed[Int(byte)] {
                written.push(byte)
                if written.length >= OutputLog.windowLength { look(written, into: &firstWritten) }
            } else {
                written.length = 0
            }
            if isSpace { continue }  // the joined text leaves whitespace out
            if allowed[Int(byte)] {
                joined.push(byte)
                if joined.length >= OutputLog.windowLength { look(joined, into: &firstJoined) }
            } else {
                joined.length = 0
            }
        }
        return firstJoined.merging(firstWritten) { _, written in written }
    }

    /// 20 bits of a window's hash: its bit in ``filter``.
    private static func bit(of window: Window) -> Int {
        let mixed = (window.high &* 0x9E37_79B9_7F4A_7C15) ^ (window.low &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed >> 44)
    }

    private static func text(of window: Window) -> String {
        var bytes: [UInt8] = []
        for word in [window.high, window.low] {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
