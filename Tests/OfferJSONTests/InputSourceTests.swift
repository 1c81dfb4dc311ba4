import Foundation
import Testing

@testable import OfferJSON

/// How OfferKit opens what it reads (``InputSource``, ``BoundedInput``): never blocking in
/// `open(2)`, a regular file where one is needed, every stream bounded.
@Suite("Bounded inputs and FIFOs")
struct InputSourceTests {
    /// A fresh folder, removed by `body`'s end.
    static func withFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    @Test("a regular file only: a FIFO, a device and a folder are refused without being opened")
    func regularFileOnly() throws {
        try Self.withFolder { folder in
            let fifo = folder + "/campaign.json"
            #expect(mkfifo(fifo, 0o600) == 0)
            // No writer: opening it for reading in blocking mode would never return.
            #expect(throws: BoundedInput.Failure.notRegularFile(kind: "a FIFO (named pipe)")) {
                try BoundedInput.read(path: fifo, limit: 100, accepting: .regularFile)
            }
            #expect(throws: BoundedInput.Failure.notRegularFile(kind: "a character device")) {
                try BoundedInput.read(path: "/dev/zero", limit: 100, accepting: .regularFile)
            }
            #expect(throws: BoundedInput.Failure.isDirectory) {
                try BoundedInput.read(path: folder, limit: 100, accepting: .regularFile)
            }
            #expect(throws: BoundedInput.Failure.cannotOpen(reason: "no such file")) {
                try BoundedInput.read(path: folder + "/missing", limit: 100, accepting: .regularFile)
            }
            let file = folder + "/file"
            try Data("hello".utf8).write(to: URL(fileURLWithPath: file))
            #expect(try BoundedInput.read(path: file, limit: 5, accepting: .regularFile) == Array("hello".utf8))
            #expect(throws: BoundedInput.Failure.tooLarge(limit: 4)) {
                try BoundedInput.read(path: file, limit: 4, accepting: .regularFile)
            }
            let message = BoundedInput.Failure.notRegularFile(kind: "a FIFO (named pipe)").reason
            #expect(message == "it is a FIFO (named pipe), not a regular file")
        }
    }

    @Test("a stream: /dev/zero is read up to the limit and refused; /dev/null is empty")
    func devices() throws {
        #expect(throws: BoundedInput.Failure.tooLarge(limit: 1000)) {
            try BoundedInput.read(path: "/dev/zero", limit: 1000, accepting: .fileOrStream)
        }
        #expect(try BoundedInput.read(path: "/dev/null", limit: 1000, accepting: .fileOrStream) == [])
    }

    @Test("a FIFO nobody opens for writing is refused once the writer wait is over, never hangs")
    func fifoWithoutWriter() throws {
        try Self.withFolder { folder in
            let fifo = folder + "/key.p8"
            #expect(mkfifo(fifo, 0o600) == 0)
            #expect(throws: BoundedInput.Failure.noWriter(seconds: 0)) {
                try BoundedInput.read(path: fifo, limit: 100, accepting: .fileOrStream, writerWait: 0)
            }
            #expect(
                BoundedInput.Failure.noWriter(seconds: 5).reason
                    == "it is a FIFO (named pipe) that no program opened for writing within 5 s")
        }
    }

    @Test("a FIFO whose writer comes: its bytes are read to its end")
    func fifoWithWriter() throws {
        try Self.withFolder { folder in
            let fifo = folder + "/request.json"
            #expect(mkfifo(fifo, 0o600) == 0)
            // The reader opens first (without blocking), then a writer opens, writes and closes.
            let source = try InputSource(path: fifo, accepting: .fileOrStream)
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            #expect(writer >= 0)
            let text = Array("{\"a\":1}".utf8)
            #expect(text.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == text.count)
            close(writer)
            #expect(try BoundedInput.read(source, limit: 100) == text)
        }
    }

    @Test("staging folders: an abandoned one is removed, one a live writer holds is kept")
    func stagingFolders() throws {
        try Self.withFolder { folder in
            let target = folder + "/codes.csv"
            // What a run killed mid-write leaves: a folder with the unfinished file, unlocked.
            let abandoned = folder + "/.codes.csv.offerkit-0badc0de.tmp"
            try FileManager.default.createDirectory(atPath: abandoned, withIntermediateDirectories: false)
            try Data("half".utf8).write(to: URL(fileURLWithPath: abandoned + "/codes.csv"))
            // Another file's staging folder and an unrelated hidden file stay.
            let other = folder + "/.other.csv.offerkit-00000000.tmp"
            try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
            try Data().write(to: URL(fileURLWithPath: folder + "/.codes.csv.notes"))
            var removed: [String] = []
            let live = try StagingFolder(for: target) { removed.append($0) }
            #expect(removed == [abandoned])
            #expect(!FileManager.default.fileExists(atPath: abandoned))
            #expect(FileManager.default.fileExists(atPath: other))
            #expect(FileManager.default.fileExists(atPath: folder + "/.codes.csv.notes"))
            #expect(URL(fileURLWithPath: live.path).lastPathComponent.hasPrefix(".codes.csv.offerkit-"))
            // A second writer of the same file leaves the first one's folder alone (it is locked).
            let second = try StagingFolder(for: target)
            #expect(FileManager.default.fileExists(atPath: live.path))
            #expect(StagingFolder.removeAbandoned(for: target).isEmpty)
            try Data("x".utf8).write(to: URL(fileURLWithPath: live.file("codes.csv")))
            live.remove()
            second.remove()
            let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(left == [".codes.csv.notes", ".other.csv.offerkit-00000000.tmp"])
        }
    }
}
