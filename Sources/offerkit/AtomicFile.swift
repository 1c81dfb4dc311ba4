import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file whole or not at all: the bytes go to a temporary file in the same folder,
/// which is flushed and renamed over the target only when complete.
enum AtomicFile {
    /// - Parameters:
    ///   - permissions: the new file's mode, set before any byte is written (0600 for keys).
    ///   - overwrite: when false, an existing file is an error and is left untouched.
    static func write(_ data: Data, to path: String, permissions: mode_t = 0o644, overwrite: Bool = true) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        if !overwrite, FileManager.default.fileExists(atPath: path) {
            throw CLIError.io(path: path, reason: "already exists (use --force to replace it)")
        }
        let temporary = "\(directory)/.\(url.lastPathComponent).\(UUID().uuidString).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, permissions)
        guard descriptor >= 0 else { throw CLIError.io(path: path, reason: String(cString: strerror(errno))) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, fchmodTarget(temporary, permissions) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil, !overwrite, FileManager.default.fileExists(atPath: path) {
            failure = "already exists (use --force to replace it)"
        }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw CLIError.io(path: path, reason: failure)
        }
    }

    /// `open` applies the umask; set the exact mode asked for.
    private static func fchmodTarget(_ path: String, _ permissions: mode_t) -> Int32 {
        chmod(path, permissions)
    }
}
