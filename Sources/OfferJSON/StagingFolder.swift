#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hidden folder beside a file being written, `.NAME.offerkit-XXXXXXXX.tmp/` (mode 0700), where
/// the file is made whole before it takes its name: the one way OfferKit writes a file whole or
/// not at all (`--out`, `--output`, `codes ledger copy`'s new ledger, generated keys and vectors).
///
/// Its writer holds an exclusive `flock(2)` on the folder for as long as it lives. A run that is
/// killed cannot remove its folder, but its lock goes with it: the next run that writes the same
/// file removes every such folder whose lock is free (``removeAbandoned(for:)``, which the
/// initializer calls), and says so. A folder whose lock is held belongs to a run still writing
/// and is left alone; on a file system without `flock` a folder is never removed by another run,
/// but its name says what it is.
package final class StagingFolder {
    /// The folder.
    package let path: String
    private var descriptor: Int32

    /// What every staging folder's name holds after the target's name.
    package static let marker = ".offerkit-"

    /// Why a staging folder could not be made.
    package struct Failure: Error, Equatable, Sendable {
        /// The system's words, such as "permission denied".
        package let reason: String
    }

    /// Makes a staging folder beside `target`, after removing the ones earlier runs left for it.
    /// - Parameter removed: called with each abandoned folder removed first.
    package init(for target: String, removed: (String) -> Void = { _ in }) throws(Failure) {
        for folder in Self.removeAbandoned(for: target) { removed(folder) }
        let (directory, prefix) = Self.prefix(for: target)
        for _ in 0..<8 {
            let candidate = directory + "/" + prefix + Self.randomSuffix() + ".tmp"
            guard mkdir(candidate, 0o700) == 0 else {
                if errno == EEXIST { continue }
                throw Failure(reason: InputSource.errorText(errno))
            }
            let descriptor = open(candidate, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let reason = InputSource.errorText(errno)
                rmdir(candidate)
                throw Failure(reason: reason)
            }
            // Locked, and still at its name: a run cleaning up between mkdir and flock may have
            // taken it for abandoned (it then removed it, or holds it): make another one.
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK {
                close(descriptor)
                continue
            }
            guard Self.isSame(descriptor, candidate) else {
                close(descriptor)
                continue
            }
            path = candidate
            self.descriptor = descriptor
            return
        }
        throw Failure(reason: "no new folder name could be made beside it")
    }

    deinit { remove() }

    /// The path of `name` in the folder.
    package func file(_ name: String) -> String { path + "/" + name }

    /// Removes the files in the folder and the folder, and releases its lock (again: nothing).
    package func remove() {
        guard descriptor >= 0 else { return }
        Self.removeContents(path)
        rmdir(path)
        close(descriptor)
        descriptor = -1
    }

    /// Removes the staging folders beside `target` that no run holds any more (their writer was
    /// killed); returns their paths. Folders of other users, and anything that is not a folder,
    /// are left alone.
    @discardableResult
    package static func removeAbandoned(for target: String) -> [String] {
        let (directory, prefix) = prefix(for: target)
        var removed: [String] = []
        for name in names(in: directory) where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let folder = directory + "/" + name
            var status = stat()
            guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid() else {
                continue
            }
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, isSame(descriptor, folder) else { continue }
            removeContents(folder)
            if rmdir(folder) == 0 { removed.append(folder) }
        }
        return removed
    }

    /// The folder that holds `target`, and the start of its staging folders' names:
    /// `.NAME.offerkit-` (the name cut to 64 characters, so that the folder's name stays short).
    static func prefix(for target: String) -> (directory: String, prefix: String) {
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        return (directory, "." + String(name.prefix(64)) + marker)
    }

    /// Whether the open folder is still the one at `path`.
    private static func isSame(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        return fstat(descriptor, &opened) == 0 && lstat(path, &named) == 0 && opened.st_dev == named.st_dev
            && opened.st_ino == named.st_ino
    }

    /// Unlinks the entries of `folder` (a folder among them stays, and so does `folder` then).
    private static func removeContents(_ folder: String) {
        for name in names(in: folder) where name != "." && name != ".." { unlink(folder + "/" + name) }
    }

    /// The names of the entries of `folder` (none when it cannot be read).
    private static func names(in folder: String) -> [String] {
        guard let listing = opendir(folder) else { return [] }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            names.append(
                withUnsafePointer(to: &entry.pointee.d_name) {
                    String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
                })
        }
        return names
    }

    private static func randomSuffix() -> String {
        let value = UInt32.random(in: 0...UInt32.max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
