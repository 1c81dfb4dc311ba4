import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file whole or not at all: the bytes go to a temporary file in the same folder, which
/// gets its mode, is flushed, and only then takes the target's name.
enum AtomicFile {
    /// - Parameters:
    ///   - permissions: the new file's mode (0600 for keys); the temporary file is created with it.
    ///   - overwrite: when false, an existing file is an error and is left untouched, even if it
    ///     appears while we write (the final step is `link(2)`, which never replaces).
    static func write(_ data: Data, to path: String, permissions: mode_t = 0o644, overwrite: Bool = true) throws {
        if !overwrite, FileManager.default.fileExists(atPath: path) { throw exists(path) }
        try commit(try prepare(data, for: path, permissions: permissions), to: path, overwrite: overwrite)
    }

    /// Writes `data` to a new temporary file beside `path`, with its mode, flushed; returns the
    /// temporary file's path for ``commit(_:to:overwrite:)`` (or for `unlink` if it is not wanted).
    static func prepare(_ data: Data, for path: String, permissions: mode_t = 0o644) throws -> String {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let temporary = "\(directory)/.\(URL(fileURLWithPath: path).lastPathComponent).\(UUID().uuidString).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, permissions)
        guard descriptor >= 0 else { throw CLIError.io(path: path, reason: lastError()) }
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.write(contentsOf: data)
            guard fchmod(descriptor, permissions) == 0 else { throw CLIError.io(path: path, reason: lastError()) }
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw error as? CLIError ?? CLIError.io(path: path, reason: "write failed")
        }
        return temporary
    }

    /// Gives a finished temporary file its final name, then flushes the folder entry.
    static func commit(_ temporary: String, to path: String, overwrite: Bool) throws {
        if overwrite {
            guard rename(temporary, path) == 0 else {
                let reason = lastError()
                unlink(temporary)
                throw CLIError.io(path: path, reason: reason)
            }
        } else {
            let linked = link(temporary, path)
            let failure = errno
            unlink(temporary)
            guard linked == 0 else {
                throw failure == EEXIST ? exists(path) : CLIError.io(path: path, reason: lastError())
            }
        }
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    private static func exists(_ path: String) -> CLIError {
        .io(path: path, reason: "already exists (use --force to replace it)")
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
