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
/// A path is opened as ``InputSource`` opens it: never blocking in `open(2)`, refused unopened
/// when it names something other than what the input may be (``Accepting``). A regular file
/// larger than `limit` is refused before any of it is read; a stream is read up to the limit and
/// no further, so `/dev/zero` is refused too. A failure names its reason (the `errno` text).
package enum BoundedInput {
    /// What a path may name.
    package enum Accepting: Sendable, Equatable {
        /// A regular file (after symbolic links) only: a setup or a table the user keeps, such as a
        /// campaign, a configuration or a recipients list. A FIFO, a device or a socket is refused
        /// without being opened.
        case regularFile
        /// A regular file or a stream: a FIFO, a pipe (`/dev/stdin`, a shell's `<(…)`) or a
        /// character device, for a single artifact such as a key or a JWS, which need not touch a disk.
        case fileOrStream
    }

    /// Why an input could not be read whole.
    package enum Failure: Error, Equatable, Sendable {
        /// `open(2)` or `stat(2)` failed: the reason is the system's text, such as "no such file".
        case cannotOpen(reason: String)
        /// The path names a directory.
        case isDirectory
        /// The path names something other than a regular file (`kind`, such as "a FIFO (named
        /// pipe)"), where only a regular file is accepted.
        case notRegularFile(kind: String)
        /// The path names a FIFO that no program opened for writing within `seconds`.
        case noWriter(seconds: Int)
        /// `read(2)` failed after the input was opened.
        case readFailed(reason: String)
        /// The input holds more than `limit` bytes.
        case tooLarge(limit: Int)

        /// Words for a message after the input's name and a colon: "no such file", "it is a directory".
        package var reason: String {
            switch self {
            case .cannotOpen(let reason): reason
            case .isDirectory: "it is a directory, not a file"
            case .notRegularFile(let kind): "it is \(kind), not a regular file"
            case .noWriter(let seconds):
                "it is a FIFO (named pipe) that no program opened for writing within \(seconds) s"
            case .readFailed(let reason): "read failed: \(reason)"
            case .tooLarge(let limit): "it is larger than \(BoundedInput.describe(limit)), the most accepted here"
            }
        }
    }

    /// The bytes of the file at `path`, at most `limit` of them.
    /// - Parameters:
    ///   - accepting: what `path` may name (see ``Accepting``).
    ///   - writerWait: seconds to wait for a FIFO's writer (see ``InputSource/writerWait``).
    package static func read(
        path: String, limit: Int, accepting: Accepting, writerWait: Int = InputSource.writerWait
    ) throws(Failure) -> [UInt8] {
        try read(InputSource(path: path, accepting: accepting, writerWait: writerWait), limit: limit)
    }

    /// The bytes of standard input (or of `descriptor`, a command's stdin), at most `limit` of them.
    package static func readStandardInput(
        limit: Int, descriptor: Int32 = STDIN_FILENO
    ) throws(Failure) -> [UInt8] {
        try read(InputSource(standardInput: descriptor), limit: limit)
    }

    /// The bytes of `source` up to its end, at most `limit` of them.
    package static func read(_ source: InputSource, limit: Int) throws(Failure) -> [UInt8] {
        precondition(limit >= 0 && limit < Int.max / 2, "a limit is a size in bytes")
        var bytes: [UInt8] = []
        var chunk = 1 << 16
        // A regular file announces its size: refuse a large one before reading any of it, and
        // read a small one into storage reserved once (one read for the whole file, and one more
        // that finds its end).
        if let size = source.regularFileSize {
            guard size <= limit else { throw .tooLarge(limit: limit) }
            chunk = max(chunk, size + 1)
            bytes.reserveCapacity(chunk)
        }
        while true {
            let count = try source.append(upTo: min(chunk, limit + 1 - bytes.count), to: &bytes)
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
}
