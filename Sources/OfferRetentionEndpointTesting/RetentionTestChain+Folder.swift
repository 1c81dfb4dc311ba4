import Crypto
import Foundation
import OfferJSON
import X509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension RetentionTestChain {
    /// The root certificate's file: what the endpoint trusts (`retention.rootCertificates`).
    public static let rootFile = "root.pem"
    /// The intermediate certificate's file.
    public static let intermediateFile = "intermediate.pem"
    /// The leaf certificate's file.
    public static let leafFile = "leaf.pem"
    /// The leaf's private key (PKCS#8 PEM), mode 0600.
    public static let leafKeyFile = "leaf-key.pem"
    /// The largest file of a chain folder that is read (a PEM certificate is about 1 KB).
    public static let fileLimit = 64 * 1024

    /// The files of the chain: name, text and mode, in the order they are written.
    public var files: [(name: String, text: String, mode: mode_t)] {
        [
            (Self.rootFile, rootPEM, 0o644),
            (Self.intermediateFile, Self.pem(intermediate), 0o644),
            (Self.leafFile, Self.pem(leaf), 0o644),
            (Self.leafKeyFile, leafKey.pemRepresentation + "\n", 0o600),
        ]
    }

    /// Writes the chain into `folder` (made if missing), each file whole: written to a temporary
    /// file in the same folder with its final mode, flushed, then renamed.
    /// - Parameters:
    ///   - folder: the folder to write the chain's files into.
    ///   - overwrite: when false, a file of the chain already in `folder` is an error and
    ///     nothing is written.
    /// - Throws: ``RetentionTestChainError``.
    public func write(to folder: URL, overwrite: Bool = false) throws(RetentionTestChainError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder.path, reason: "the folder could not be made")
        }
        if !overwrite {
            for file in files {
                let path = folder.appendingPathComponent(file.name).path
                if FileManager.default.fileExists(atPath: path) { throw .fileExists(path: path) }
            }
        }
        for file in files {
            try Self.writeWhole(
                Array(file.text.utf8), to: folder.appendingPathComponent(file.name).path, mode: file.mode,
                overwrite: overwrite)
        }
    }

    /// Reads a chain that ``write(to:overwrite:)`` wrote into `folder`.
    /// - Throws: ``RetentionTestChainError`` naming the file that is missing, too large or not PEM.
    public init(folder: URL) throws(RetentionTestChainError) {
        func read(_ name: String) throws(RetentionTestChainError) -> String {
            let path = folder.appendingPathComponent(name).path
            do {
                return String(
                    decoding: try BoundedInput.read(path: path, limit: Self.fileLimit, accepting: .regularFile),
                    as: UTF8.self)
            } catch {
                throw .io(path: path, reason: error.reason)
            }
        }
        func certificate(_ name: String) throws(RetentionTestChainError) -> Certificate {
            let text = try read(name)
            do {
                return try Certificate(pemEncoded: text)
            } catch {
                throw .unreadable(
                    path: folder.appendingPathComponent(name).path,
                    expected: "one PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
        }
        let root = try certificate(Self.rootFile)
        let intermediate = try certificate(Self.intermediateFile)
        let leaf = try certificate(Self.leafFile)
        let keyText = try read(Self.leafKeyFile)
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: keyText)
        } catch {
            throw .unreadable(
                path: folder.appendingPathComponent(Self.leafKeyFile).path,
                expected: "a P-256 private key in PEM (-----BEGIN PRIVATE KEY-----)")
        }
        try self.init(root: root, intermediate: intermediate, leaf: leaf, leafKey: key)
    }

    /// Writes `bytes` to a new temporary file beside `path` with `mode`, flushes it, then gives it
    /// `path`'s name: `rename(2)`, or `link(2)` (which never replaces) when not overwriting.
    private static func writeWhole(_ bytes: [UInt8], to path: String, mode: mode_t, overwrite: Bool)
        throws(RetentionTestChainError)
    {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp"
        ).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        /// The failure of the call that just failed, with `strerror(errno)`; the temporary file removed.
        func failed(_ what: String) -> RetentionTestChainError {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            unlink(temporary)
            return .io(path: path, reason: "the file could not be \(what): \(reason)")
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failed("written")
            }
            written += count
        }
        guard fchmod(descriptor, mode) == 0 else { throw failed("given mode \(String(mode, radix: 8))") }
        guard fsync(descriptor) == 0 else { throw failed("flushed") }
        guard close(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(path: path, reason: "the file could not be closed: \(reason)")
        }
        if overwrite {
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw .io(path: path, reason: reason)
            }
        } else {
            let linked = link(temporary, path)
            let failure = errno
            unlink(temporary)
            guard linked == 0 else {
                if failure == EEXIST { throw .fileExists(path: path) }
                throw .io(path: path, reason: String(cString: strerror(failure)))
            }
        }
    }
}

/// `write(2)` (inside ``RetentionTestChain`` the name is its ``RetentionTestChain/write(to:overwrite:)``).
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
