import Foundation
import OfferJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CodeLedger {
    /// Opens the SQLite ledger at `path` (see `SQLiteLedgerStore` for its transactions, its
    /// durability and its checks): with ``LedgerAccess/readWrite`` the file is created (mode 0600)
    /// when missing and its schema brought up to date; ``LedgerAccess/readOnly`` opens it as it is.
    /// Opening checks every batch row against its checksum. A ledger opened read-only leaves the
    /// file byte for byte as it was, with no `-wal` or `-shm` beside it once it is let go. `path`
    /// must name a regular file (a FIFO, a device or a directory is refused without being opened).
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:)`` when the file cannot be opened or created
    ///   (or, read-only, is missing),
    ///   ``LedgerError/corrupt(path:reason:)`` when it is not a readable SQLite database or looks
    ///   damaged, ``LedgerError/notALedger(path:)`` for another program's database,
    ///   ``LedgerError/newerSchema(path:unknownMigrations:)`` for a ledger of a newer OfferKit, and
    ///   ``LedgerError/olderSchema(path:applied:current:)`` for an older (or empty) ledger opened
    ///   read-only.
    public static func sqlite(path: String, access: LedgerAccess = .readWrite) async throws -> CodeLedger {
        try await CodeLedger(store: try await SQLiteLedgerStore.open(path: path, access: access), access: access)
            .opened()
    }

    /// Runs `body` with the SQLite ledger at `path` (opened as ``sqlite(path:access:)`` opens
    /// it) and closes its connections when `body` returns or throws, before this returns. Unless
    /// another process still has the ledger open, the file is whole again then, without `-wal` and
    /// `-shm` (the last connection to close folds the log into the file), and a copy of the file
    /// alone holds all that was written. A
    /// ledger from ``sqlite(path:access:)`` closes its connections only some time after it is
    /// let go.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what ``sqlite(path:access:)`` throws, what `body` throws, and
    ///   ``LedgerError/databaseFailure(operation:reason:)`` when a connection cannot be closed.
    public static func withSQLite<T>(
        path: String, access: LedgerAccess = .readWrite, _ body: (CodeLedger) async throws -> T
    ) async throws -> T {
        let ledger = try await sqlite(path: path, access: access)
        let result: T
        do {
            result = try await body(ledger)
        } catch {
            try? await ledger.closeConnections()
            throw error
        }
        try await ledger.closeConnections()
        return result
    }

    /// A ledger that lives in memory and vanishes with the object: for tests and dry runs.
    public static func inMemory() async throws -> CodeLedger {
        try await CodeLedger(store: try await SQLiteLedgerStore.inMemory(), access: .readWrite).opened()
    }

    /// Creates a new SQLite ledger file at `path` whole or not at all: `body` fills a new ledger in
    /// a staging folder next to `path` (`StagingFolder`: `.NAME.offerkit-XXXXXXXX.tmp/`, mode 0700,
    /// locked while this process lives), which takes the name `path` only once `body` has returned
    /// and the ledger is closed.
    ///
    /// Why a temporary file: a copy into the file itself would commit the new file's tables first
    /// and the copied rows in a later transaction, so a copy killed in between would leave an
    /// empty ledger at `path` that looks like a real one. With the staging folder, `path` appears
    /// complete or not at all; a killed copy leaves only the hidden folder (the file and its `-wal`
    /// and `-shm`), which the next copy to `path` removes (`removedAbandoned` is told). Closing the
    /// ledger folds its write-ahead log into the file (checked: a log left behind would hold rows
    /// the linked file lacks). The final step is `link(2)`, which never replaces a file that
    /// appeared at `path` meanwhile.
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:)`` when `path` exists or its folder does
    ///   not, or the file cannot be linked into place; whatever `body` throws. The staging folder
    ///   is removed then.
    package static func creatingNewSQLiteFile<T>(
        at path: String, removedAbandoned: (String) -> Void = { _ in }, _ body: (CodeLedger) async throws -> T
    ) async throws -> T {
        if FileManager.default.fileExists(atPath: path) {
            throw LedgerError.cannotOpen(path: path, reason: "the file exists; expected a new path")
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw LedgerError.cannotOpen(path: path, reason: "the folder \(folder) does not exist")
        }
        let staging: StagingFolder
        do {
            staging = try StagingFolder(for: path, removed: removedAbandoned)
        } catch {
            throw LedgerError.cannotOpen(path: path, reason: "cannot create a folder beside it: \(error.reason)")
        }
        defer { staging.remove() }
        let temporary = staging.file(url.lastPathComponent)
        let store = try await SQLiteLedgerStore.open(path: temporary, access: .readWrite)
        let result = try await body(try await CodeLedger(store: store, access: .readWrite).opened())
        try await store.closeConnections()
        if let size = try? FileManager.default.attributesOfItem(atPath: temporary + "-wal")[.size] as? NSNumber,
            size.intValue > 0
        {
            throw LedgerError.cannotOpen(
                path: path, reason: "SQLite kept part of the new ledger in its log on closing; nothing was written")
        }
        guard link(temporary, path) == 0 else {
            let reason =
                errno == EEXIST ? "a file appeared at the path meanwhile" : String(cString: strerror(errno))
            throw LedgerError.cannotOpen(path: path, reason: reason + "; nothing was written to it")
        }
        let descriptor = systemOpen(folder, O_RDONLY, 0)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        return result
    }
}
