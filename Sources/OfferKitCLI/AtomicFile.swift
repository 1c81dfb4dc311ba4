import Foundation
import OfferJSON
import OfferKitSigningCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file whole or not at all: the bytes go to a file in a staging folder beside the target
/// (``StagingFolder``: `.NAME.offerkit-XXXXXXXX.tmp/`, locked while this process lives), which gets
/// its mode, is flushed, and only then takes the target's name. A run killed before that leaves
/// only the staging folder, which the next run writing the same file removes, and says so.
enum AtomicFile {
    /// A file written in its staging folder, waiting for its name (the folder goes with the object).
    final class Staged {
        let folder: StagingFolder
        /// The file in the folder.
        let file: String

        init(folder: StagingFolder, file: String) {
            self.folder = folder
            self.file = file
        }
    }

    /// - Parameters:
    ///   - permissions: the new file's mode (0600 for keys); the temporary file is created with it.
    ///   - overwrite: when false, an existing file is an error and is left untouched, even if it
    ///     appears while we write (the final step is `link(2)`, which never replaces).
    static func write(_ data: Data, to path: String, permissions: mode_t = 0o644, overwrite: Bool = true) throws {
        if !overwrite, FileManager.default.fileExists(atPath: path) { throw exists(path) }
        try commit(try prepare(data, for: path, permissions: permissions), to: path, overwrite: overwrite)
    }

    /// A new staging folder for `path`; abandoned ones of earlier runs are removed first, each
    /// named on stderr.
    static func stagingFolder(for path: String) throws -> StagingFolder {
        do {
            return try StagingFolder(for: path, removed: noteRemoved)
        } catch {
            throw CLIError.io(path: path, reason: "cannot create a temporary folder beside it: \(error.reason)")
        }
    }

    /// Says on stderr that an abandoned staging folder was removed.
    static func noteRemoved(_ folder: String) {
        Output.note("removed \(folder), the unfinished output of an earlier run that was interrupted")
    }

    /// Writes `data` to a new file in a staging folder beside `path`, with its mode, flushed; for
    /// ``commit(_:to:overwrite:)`` (or to be dropped: the folder goes with the object).
    static func prepare(_ data: Data, for path: String, permissions: mode_t = 0o644) throws -> Staged {
        let folder = try stagingFolder(for: path)
        let temporary = folder.file(URL(fileURLWithPath: path).lastPathComponent)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw CLIError.io(path: path, reason: lastError()) }
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.write(contentsOf: data)
            guard fchmod(descriptor, permissions) == 0 else { throw CLIError.io(path: path, reason: lastError()) }
            try handle.synchronize()
            try handle.close()
        } catch {
            throw error as? CLIError ?? CLIError.io(path: path, reason: "write failed")
        }
        return Staged(folder: folder, file: temporary)
    }

    /// Gives a finished file its final name, flushes the folder entry and removes the staging folder.
    static func commit(_ staged: Staged, to path: String, overwrite: Bool) throws {
        defer { staged.folder.remove() }
        if overwrite {
            guard rename(staged.file, path) == 0 else { throw CLIError.io(path: path, reason: lastError()) }
        } else {
            guard link(staged.file, path) == 0 else {
                throw errno == EEXIST ? exists(path) : CLIError.io(path: path, reason: lastError())
            }
        }
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
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
