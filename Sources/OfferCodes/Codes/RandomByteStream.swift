#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stream of random bytes served from a 64 KiB buffer, refilled from `/dev/urandom` or from a
/// seeded xoshiro256** generator.
///
/// A reference type on purpose: copies of a ``CodeGenerator`` share one stream, so two copies
/// never hand out the same bytes. Not thread-safe (one generator per thread).
final class RandomByteStream {
    /// The bytes read per refill.
    static let blockSize = 65_536
    /// The device the system source reads.
    static let devicePath = "/dev/urandom"

    private enum Source {
        case device(descriptor: Int32, path: String)
        case seeded(Xoshiro256StarStar)
    }

    private var source: Source
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var position = 0
    private var end = 0

    /// Opens the source; for the system source the device must be a readable character device.
    init(_ random: CodeRandomSource, devicePath: String = RandomByteStream.devicePath) throws(CodeGenerationError) {
        switch random {
        case .seeded(let seed):
            source = .seeded(Xoshiro256StarStar(seed: seed))
        case .system:
            source = .device(descriptor: try Self.openDevice(devicePath), path: devicePath)
        }
        buffer = .allocate(capacity: Self.blockSize)
    }

    deinit {
        if case .device(let descriptor, _) = source { close(descriptor) }
        buffer.deallocate()
    }

    /// Writes `output.count` characters, each from the next random byte `b` that `table[b]`
    /// maps to a non-zero character (rejection sampling: zero entries are skipped).
    func draw(into output: UnsafeMutableBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>)
        throws(CodeGenerationError)
    {
        var written = 0
        var position = self.position
        while written < output.count {
            if position == end {
                try refill()
                position = 0
            }
            let character = table[Int(buffer[position])]
            position += 1
            if character != 0 {
                output[written] = character
                written += 1
            }
        }
        self.position = position
    }

    /// The next 8 bytes as a little-endian word (for keys: no byte is skipped).
    func word() throws(CodeGenerationError) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<8 {
            if position == end { try refill() }
            word |= UInt64(buffer[position]) << (8 * UInt64(index))
            position += 1
        }
        return word
    }

    private func refill() throws(CodeGenerationError) {
        switch source {
        case .seeded(var generator):
            generator.fill(buffer)
            source = .seeded(generator)
        case .device(let descriptor, let path):
            var filled = 0
            while filled < buffer.count {
                let result = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                if result > 0 {
                    filled += result
                } else if result == 0 {
                    throw .randomSourceUnreadable(path: path, reason: "it returned no bytes (end of file)")
                } else if errno != EINTR {
                    throw .randomSourceUnreadable(path: path, reason: Self.lastError())
                }
            }
        }
        position = 0
        end = buffer.count
    }

    private static func openDevice(_ path: String) throws(CodeGenerationError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .randomSourceUnreadable(path: path, reason: lastError()) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = lastError()
            close(descriptor)
            throw .randomSourceUnreadable(path: path, reason: reason)
        }
        guard status.st_mode & S_IFMT == S_IFCHR else {
            close(descriptor)
            throw .randomSourceUnreadable(path: path, reason: "it is not a character device")
        }
        return descriptor
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
