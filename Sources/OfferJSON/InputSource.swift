#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input opened for reading without ever blocking in `open(2)`: the one way OfferKit opens a
/// file it reads (``BoundedInput`` reads one whole, `offerkit batch` streams one).
///
/// A path is looked at with `stat(2)` before it is opened. What it may name depends on
/// ``BoundedInput/Accepting``: a regular file only (anything else is refused unopened, and again
/// after opening, should a FIFO have been swapped in between), or also a stream (a FIFO, a pipe
/// such as `/dev/stdin` or a shell's `<(…)`, a character device). Every path is opened with
/// `O_NONBLOCK`, so a FIFO nobody writes to cannot hold the open: its writer is waited for at
/// most ``writerWait`` (reading a FIFO that no program opened for writing is
/// ``BoundedInput/Failure/noWriter(seconds:)``); once a writer is there, reads wait for its data
/// as they would on stdin.
package final class InputSource {
    /// How long reading a FIFO waits for a program to open it for writing: 5 seconds. A writer
    /// started just before (`cat key.p8 > fifo &`) opens it within milliseconds.
    package static let writerWait = 5

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// A FIFO opened by its path, whose writer has not been seen yet: until when to wait for one.
    private var writerDeadline: UInt64?
    private let writerWaitSeconds: Int

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - accepting: what `path` may name besides a regular file.
    ///   - writerWait: seconds to wait for a FIFO's writer (``writerWait`` unless a test says less).
    package init(path: String, accepting: BoundedInput.Accepting, writerWait: Int = InputSource.writerWait)
        throws(BoundedInput.Failure)
    {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .cannotOpen(reason: Self.errorText(errno)) }
        try Self.check(status, accepting: accepting)
        var descriptor: Int32
        var opened: Int32 = 0
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            opened = descriptor < 0 ? errno : 0
        } while descriptor < 0 && opened == EINTR
        guard descriptor >= 0 else { throw .cannotOpen(reason: Self.errorText(opened)) }
        // What was opened, which may not be what was looked at.
        guard fstat(descriptor, &status) == 0 else {
            let failure = errno
            close(descriptor)
            throw .cannotOpen(reason: Self.errorText(failure))
        }
        do {
            try Self.check(status, accepting: accepting)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        ownsDescriptor = true
        writerWaitSeconds = writerWait
        if status.st_mode & S_IFMT == S_IFIFO {
            writerDeadline = Self.now() + UInt64(max(0, writerWait)) * 1_000_000_000
        }
    }

    /// Standard input, or the descriptor a command was given as its stdin (left open when the
    /// source goes away).
    package init(standardInput descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
        ownsDescriptor = false
        writerWaitSeconds = 0
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes into `buffer`: how many were read, 0 at the end of the input.
    /// Waits for a stream's data (and, for a FIFO, for its writer: see the type's documentation).
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(BoundedInput.Failure) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = systemRead(descriptor, base, buffer.count)
            if count > 0 {
                writerDeadline = nil
                return count
            }
            if count == 0 {
                // A FIFO opened without blocking reads as ended until a writer opens it.
                guard let deadline = writerDeadline else { return 0 }
                guard Self.now() < deadline else { throw .noWriter(seconds: writerWaitSeconds) }
                var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
                _ = nanosleep(&pause, nil)
                continue
            }
            let failure = errno
            switch failure {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // A writer is there (or a non-blocking stream was handed over): wait for its data.
                writerDeadline = nil
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, -1)
            default:
                throw .readFailed(reason: Self.errorText(failure))
            }
        }
    }

    /// 1 MiB of zeros, which ``append(upTo:to:)`` extends an array with before reading into it.
    private static let zeros = [UInt8](repeating: 0, count: 1 << 20)

    /// Reads up to `count` bytes onto the end of `bytes`: how many were read, 0 at the end of the input.
    package func append(upTo count: Int, to bytes: inout [UInt8]) throws(BoundedInput.Failure) -> Int {
        let start = bytes.count
        // Zeros copied from an array, at most 1 MiB at a time, not `repeatElement`: appending a 1 MiB
        // `Repeated` went byte by byte (about 1.4 s of CPU per 4 MiB batch line in a debug build); one
        // zeroed array of `count` bytes would double the memory of a large file read whole.
        var missing = count
        while missing > 0 {
            let part = min(missing, Self.zeros.count)
            bytes.append(contentsOf: Self.zeros[..<part])
            missing -= part
        }
        var outcome: Result<Int, BoundedInput.Failure> = .success(0)
        bytes.withUnsafeMutableBytes { buffer in
            do throws(BoundedInput.Failure) {
                outcome = .success(try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...])))
            } catch {
                outcome = .failure(error)
            }
        }
        let filled = (try? outcome.get()) ?? 0
        bytes.removeLast(count - filled)
        return try outcome.get()
    }

    /// The size of a regular file, or `nil` for a stream.
    package var regularFileSize: Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Refuses a directory, and anything but a regular file unless streams are accepted.
    private static func check(_ status: stat, accepting: BoundedInput.Accepting) throws(BoundedInput.Failure) {
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw .isDirectory }
        if type != S_IFREG, accepting == .regularFile { throw .notRegularFile(kind: kind(of: type)) }
    }

    /// "a FIFO (named pipe)", "a character device": what a file that is not a regular one is.
    package static func kind(of type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        default: "not a regular file"
        }
    }

    /// The system's words for `code`, lower-cased ("no such file" for `ENOENT`).
    package static func errorText(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES: return "permission denied"
        default:
            guard let text = strerror(code) else { return "error \(code)" }
            return String(cString: text).lowercased()
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// `read(2)`, named apart from ``InputSource/read(into:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
    #else
        Darwin.read(descriptor, buffer, count)
    #endif
}
