#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole input that has a natural size (a key, a request, a campaign, a CSV file) and
/// refuses more than `limit` bytes without reading past `limit + 1`.
///
/// It reads with `read(2)` until end of file, so FIFOs, `/dev/stdin`, a shell's `<(…)` and
/// terminals work like regular files; a failure names its reason (the `errno` text).
package enum BoundedInput {
    /// Why an input could not be read whole.
    package enum Failure: Error, Equatable, Sendable {
        /// `open(2)` failed: the reason is the system's text, such as "no such file".
        case cannotOpen(reason: String)
        /// The path names a directory.
        case isDirectory
        /// `read(2)` failed after the input was opened.
        case readFailed(reason: String)
        /// The input holds more than `limit` bytes.
        case tooLarge(limit: Int)

        /// Words for a message after the input's name and a colon: "no such file", "it is a directory".
        package var reason: String {
            switch self {
            case .cannotOpen(let reason): reason
            case .isDirectory: "it is a directory, not a file"
            case .readFailed(let reason): "read failed: \(reason)"
            case .tooLarge(let limit): "it is larger than \(BoundedInput.describe(limit)), the most accepted here"
            }
        }
    }

    /// The bytes of the file at `path`, at most `limit` of them.
    package static func read(path: String, limit: Int) throws(Failure) -> [UInt8] {
        var descriptor: Int32
        var opened: Int32 = 0
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            opened = descriptor < 0 ? errno : 0
        } while descriptor < 0 && opened == EINTR
        guard descriptor >= 0 else { throw .cannotOpen(reason: errorText(opened)) }
        defer { close(descriptor) }
        return try read(fileDescriptor: descriptor, limit: limit)
    }

    /// The bytes of standard input, at most `limit` of them.
    package static func readStandardInput(limit: Int) throws(Failure) -> [UInt8] {
        try read(fileDescriptor: STDIN_FILENO, limit: limit)
    }

    /// The bytes of an open descriptor up to its end, at most `limit` of them. The descriptor is
    /// not closed.
    package static func read(fileDescriptor descriptor: Int32, limit: Int) throws(Failure) -> [UInt8] {
        precondition(limit >= 0 && limit < Int.max / 2, "a limit is a size in bytes")
        var status = stat()
        var bytes: [UInt8] = []
        var chunk = 1 << 16
        if fstat(descriptor, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory }
            // A regular file announces its size: refuse a large one before reading any of it, and
            // read a small one into storage reserved once.
            if (status.st_mode & S_IFMT) == S_IFREG {
                guard status.st_size <= limit else { throw .tooLarge(limit: limit) }
                // One read for the whole file (and one more that finds its end).
                chunk = max(chunk, Int(status.st_size) + 1)
                bytes.reserveCapacity(chunk)
            }
        }
        while true {
            let room = min(chunk, limit + 1 - bytes.count)
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: room))
            var count: Int
            var failure: Int32 = 0
            repeat {
                (count, failure) = bytes.withUnsafeMutableBytes { buffer in
                    let count = systemRead(descriptor, buffer.baseAddress! + start, room)
                    return (count, count < 0 ? errno : 0)
                }
                // A descriptor opened non-blocking (a shell may hand one over): wait until it is readable.
                if count < 0, failure == EAGAIN || failure == EWOULDBLOCK {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&ready, 1, -1)
                }
            } while count < 0 && (failure == EINTR || failure == EAGAIN || failure == EWOULDBLOCK)
            guard count >= 0 else { throw .readFailed(reason: errorText(failure)) }
            bytes.removeLast(room - count)
            if count == 0 { return bytes }
            if bytes.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    /// A size for messages: "16 KiB", "1 MiB", "300 bytes".
    package static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// The system's words for `code`, lower-cased ("no such file" for `ENOENT`).
    private static func errorText(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES: return "permission denied"
        default:
            guard let text = strerror(code) else { return "error \(code)" }
            return String(cString: text).lowercased()
        }
    }
}

/// `read(2)`, named apart from ``BoundedInput/read(path:limit:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
    #else
        Darwin.read(descriptor, buffer, count)
    #endif
}
