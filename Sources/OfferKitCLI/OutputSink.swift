import Foundation
import OfferKitSigningCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where streamed results go: stdout, or a file in a staging folder beside `path` that takes
/// `path`'s name only once everything is written (a file is written whole or not at all; see
/// ``AtomicFile``: a run killed meanwhile leaves the folder, which the next run removes).
///
/// Writes are buffered (64 KiB), so a caller can write one short line at a time. A spooled
/// sink holds stdout's output in an unnamed temporary file until ``finish()``, so that stdout
/// gets all of it or nothing.
final class OutputSink {
    private let path: String?
    private let temporary: AtomicFile.Staged?
    private let handle: FileHandle
    /// Stdout's output waits in `handle`, a temporary file already unlinked.
    private let spooled: Bool
    private var buffer: [UInt8] = []
    private static let bufferSize = 1 << 16

    /// - Parameters:
    ///   - overwrite: when false, an existing file at `path` is an error (checked before
    ///     anything is written, and again when the file takes its name).
    ///   - spool: without `path`, hold everything back until ``finish()`` instead of printing as
    ///     it comes (in a temporary file readable by its owner only, unlinked at once).
    init(path: String?, overwrite: Bool = true, spool: Bool = false) throws {
        self.path = path
        self.overwrite = overwrite
        buffer.reserveCapacity(Self.bufferSize)
        guard let path else {
            temporary = nil
            guard spool else {
                spooled = false
                handle = CommandContext.current.output
                return
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "offerkit-stdout-\(UUID().uuidString).tmp"
            ).path
            guard FileManager.default.createFile(atPath: file, contents: nil, attributes: [.posixPermissions: 0o600]),
                let handle = FileHandle(forUpdatingAtPath: file)
            else {
                throw CLIError.io(path: file, reason: "cannot create a temporary file to hold the output")
            }
            unlink(file)
            spooled = true
            self.handle = handle
            return
        }
        spooled = false
        if !overwrite, FileManager.default.fileExists(atPath: path) {
            throw CLIError.io(path: path, reason: "already exists (use --force to replace it)")
        }
        let folder = try AtomicFile.stagingFolder(for: path)
        let temporary = folder.file(URL(fileURLWithPath: path).lastPathComponent)
        // Owner-only: outputs hold signatures, tokens or live offer codes.
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw CLIError.io(path: path, reason: "cannot create the output file")
        }
        self.temporary = AtomicFile.Staged(folder: folder, file: temporary)
        self.handle = handle
    }

    private let overwrite: Bool

    /// A description of the destination for messages: the path, or "stdout".
    var destination: String { path ?? "stdout" }

    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// `bytes` and a newline (for streams of codes: no `String` per line).
    func writeLine(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw CLIError.io(path: destination, reason: "write failed")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, and gives the file its final name (or prints what was spooled).
    func finish() throws {
        try flush()
        if spooled { return try printSpooled() }
        guard let path, let temporary else { return }
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            abandon()
            throw CLIError.io(path: path, reason: "write failed")
        }
        try AtomicFile.commit(temporary, to: path, overwrite: overwrite)
    }

    /// Copies the spooled output to stdout, a megabyte at a time.
    private func printSpooled() throws {
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: 0)
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try CommandContext.current.output.write(contentsOf: chunk)
            }
        } catch {
            throw CLIError.io(path: "stdout", reason: "write failed")
        }
    }

    /// Drops everything written so far (the target file is never created or replaced).
    func abandon() {
        buffer.removeAll()
        if spooled { try? handle.close() }
        guard let temporary else { return }
        try? handle.close()
        temporary.folder.remove()
    }
}
