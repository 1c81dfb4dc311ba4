import ArgumentParser
import Foundation
import OfferJSON
import OfferKitSigningCLI
import OfferSigning

struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Sign JSON Lines requests: one result line per input line, in input order, on every core.",
        discussion: """
            Each input line is an object with "type" (\(BatchSigner.types.joined(separator: ", "))) and that \
            type's fields, named as in the library's request models (productId, offerIdentifier, transactionId, \
            allowIntroductoryOffer, appAccountToken, request, nonce, issuedAt, timestamp, lifetime; for \
            connect-api-token also scope and individual); an optional "id" is echoed. A bad line yields \
            {"line":N,"error":{"code","field","message"}} and the batch goes on. Blank lines are skipped but \
            counted. Exits 4 if any line failed. The batch needs the key, issuer ID and bundle ID; a \
            connect-api-token is signed with the same key and issuer ID ("individual": true for an individual \
            key). The old types promotional-offer-v1, intro-eligibility and advanced-commerce-api and the old \
            fields iat and offerId are still accepted, with one note on stderr per run.
            """)

    @Option(help: "The JSON Lines input file, or '-' for stdin.")
    var input: String = "-"

    @Option(help: "Write results to this file (whole or not at all) instead of stdout.")
    var output: String?

    @Option(parsing: .unconditional, help: "Worker threads. Default: one per core.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(
        name: .customLong("ledger"),
        help: ArgumentHelp(
            "A code ledger (as for offerkit codes): a promotional offer (either type) whose offerIdentifier is not one "
                + "of the product's offers the ledger records as created by offerkit codes apply fails its line (a "
                + "product it knows none of is not checked). Read once, at the start.",
            valueName: "path-or-url"))
    var ledger: String?

    @OptionGroup var credentials: CredentialOptions

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        try credentials.checkStandardInput(["--input": input])
        let signer = try Credentials(credentials, needs: Credentials.signing).signer()
        var offerCheck: (@Sendable (String, String) -> String?)?
        if let ledger {
            let offers = try await LedgerOfferCheck.appliedOffers(ledger: ledger)
            let bundleId = signer.bundleId
            offerCheck = { productId, offerIdentifier in
                do {
                    try offers.check(bundleId: bundleId, productId: productId, offerIdentifier: offerIdentifier)
                    return nil
                } catch {
                    return error.localizedDescription
                }
            }
        }
        let batch = BatchSigner(signer: signer, offerCheck: offerCheck)
        let source = try openInput()
        let sink = try OutputSink(path: output)
        var reader = LineReader(source: source, name: input == "-" ? "stdin" : input)
        var lineNumber = 0
        var failures = 0
        var total = 0
        var noted: Set<String> = []
        do {
            while true {
                let lines = try reader.nextLines(maximum: 8192)
                if lines.isEmpty { break }
                let first = lineNumber + 1
                lineNumber += lines.count
                let results = Self.process(lines, firstLineNumber: first, batch: batch, jobs: jobs)
                var chunk: [UInt8] = []
                chunk.reserveCapacity(results.reduce(0) { $0 + ($1?.json.count ?? 0) + 1 })
                for result in results {
                    guard let result else { continue }  // blank line
                    total += 1
                    if !result.succeeded { failures += 1 }
                    for spelling in result.deprecatedSpellings where noted.insert(spelling).inserted {
                        if let note = BatchSigner.deprecationNote(for: spelling) { Deprecation.note(note) }
                    }
                    chunk.append(contentsOf: result.json)
                    chunk.append(0x0A)
                }
                try sink.write(chunk)
            }
            try sink.finish()
        } catch {
            sink.abandon()
            throw error
        }
        if failures > 0 {
            throw CLIError.invalidInput("\(failures) of \(total) lines failed; see their error objects")
        }
    }

    /// Stdin for `-`; else the file, FIFO or pipe, opened without blocking (see ``InputSource``).
    private func openInput() throws -> InputSource {
        if input == "-" { return InputSource(standardInput: CommandContext.current.standardInput) }
        do {
            return try InputSource(path: input, accepting: .fileOrStream)
        } catch {
            throw CLIError.io(path: input, reason: error.reason)
        }
    }

    /// Signs `lines` on `jobs` threads; `nil` for blank lines.
    static func process(_ lines: [BatchLine], firstLineNumber: Int, batch: BatchSigner, jobs: Int)
        -> [BatchSigner.Result?]
    {
        var results = [BatchSigner.Result?](repeating: nil, count: lines.count)
        let workers = min(jobs, max(1, lines.count / 64))
        results.withUnsafeMutableBufferPointer { buffer in
            let output = DisjointWrites(buffer: buffer)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let start = lines.count * worker / workers
                let end = lines.count * (worker + 1) / workers
                for index in start..<end where !lines[index].isBlank {
                    switch lines[index] {
                    case .text(let bytes):
                        output[index] = batch.process(line: bytes, lineNumber: firstLineNumber + index)
                    case .tooLong(let byteCount):
                        output[index] = BatchSigner.tooLong(lineNumber: firstLineNumber + index, byteCount: byteCount)
                    }
                }
            }
        }
        return results
    }
}

/// Lets worker threads fill one buffer: each index is written by exactly one worker, and the
/// buffer is read only after `concurrentPerform` has returned.
private struct DisjointWrites<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>

    subscript(index: Int) -> Element {
        get { buffer[index] }
        nonmutating set { buffer[index] = newValue }
    }
}

extension UInt8 {
    fileprivate var isWhitespaceByte: Bool { self == 0x20 || self == 0x09 || self == 0x0D || self == 0x0A }
}

/// One input line of a batch.
enum BatchLine {
    /// The line without its newline.
    case text(ArraySlice<UInt8>)
    /// A line longer than ``BatchSigner/maximumLineBytes``: it was not kept, only counted.
    case tooLong(byteCount: Int)

    /// Whether the line is empty or white space only (skipped, but counted).
    var isBlank: Bool {
        guard case .text(let bytes) = self else { return false }
        return !bytes.contains(where: { !$0.isWhitespaceByte })
    }
}

/// Splits a stream into lines, reading 1 MiB at a time. A line longer than
/// ``BatchSigner/maximumLineBytes`` is not kept: its bytes are skipped up to its newline, so memory
/// stays bounded whatever the input. The input is bounded too, by lines rather than bytes (a batch
/// streams): at most ``maximumLines`` lines, and a line of more than ``maximumSkippedBytes`` ends
/// the batch (`/dev/zero` has no newline at all), so that no input runs forever.
struct LineReader {
    let source: InputSource
    /// How errors name the input.
    let name: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false
    /// Bytes of an overlong line skipped so far, while skipping one.
    private var skipped: Int?
    /// Lines returned so far.
    private var lineCount = 0

    /// The most lines one batch reads (blank ones included): 10,000,000.
    static let maximumLines = 10_000_000
    /// The longest line skipped before the batch stops: 64 MiB without a newline is not JSON Lines.
    static let maximumSkippedBytes = 64 << 20

    init(source: InputSource, name: String) {
        self.source = source
        self.name = name
    }

    /// How many bytes of kept lines one call returns at most (a line is never split): with
    /// lines of up to 4 MiB, 8192 of them would otherwise be 32 GiB.
    static let chunkBytes = 32 << 20

    /// Bytes asked for in one read.
    private static let readBytes = 1 << 20

    /// Up to `maximum` lines (a final line without newline included), holding up to about
    /// ``chunkBytes`` bytes.
    mutating func nextLines(maximum: Int) throws -> [BatchLine] {
        var lines: [BatchLine] = []
        var kept = 0
        defer { lineCount += lines.count }
        if lineCount == Self.maximumLines {
            // The lines up to the limit were returned: any byte after them is a line too many.
            if start == buffer.count, !finished { try readMore() }
            guard start == buffer.count else {
                throw CLIError.invalidInput(
                    "\(name) has more than \(ProgressReporter.grouped(Self.maximumLines)) lines, the most one batch "
                        + "reads; split it (the results of the first \(ProgressReporter.grouped(Self.maximumLines)) "
                        + "lines were written)")
            }
            return []
        }
        while lines.count < maximum, kept < Self.chunkBytes, lineCount + lines.count < Self.maximumLines {
            if let newline = Self.newline(in: buffer, from: start) {
                if let skipped {
                    lines.append(.tooLong(byteCount: skipped + newline - start))
                    self.skipped = nil
                } else {
                    lines.append(.text(ArraySlice(buffer[start..<newline])))
                    kept += newline - start
                }
                start = newline + 1
                continue
            }
            if finished {
                if let skipped {
                    lines.append(.tooLong(byteCount: skipped + buffer.count - start))
                    self.skipped = nil
                } else if start < buffer.count {
                    lines.append(.text(ArraySlice(buffer[start...])))
                }
                buffer = []
                start = 0
                break
            }
            let partial = buffer.count - start
            if let skipped {
                self.skipped = skipped + partial
                buffer.removeAll(keepingCapacity: true)
                if skipped + partial > Self.maximumSkippedBytes {
                    throw CLIError.invalidInput(
                        "line \(lineCount + lines.count + 1) of \(name) runs past "
                            + "\(BoundedInput.describe(Self.maximumSkippedBytes)) without a newline: the input is not "
                            + "JSON Lines; the batch stopped there")
                }
            } else if partial > BatchSigner.maximumLineBytes {
                skipped = partial
                buffer.removeAll(keepingCapacity: true)
            } else {
                buffer.removeSubrange(..<start)  // keep only the partial line, then read more
            }
            start = 0
            try readMore()
        }
        return lines
    }

    /// The index of the first newline in `bytes` at or after `start`. memchr, not `firstIndex(of:)`:
    /// a partial line is searched again after each read, and a 4 MiB line went byte by byte through
    /// the generic search (seconds of CPU per line in a debug build).
    static func newline(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBytes { raw in
            guard start < raw.count, let base = raw.baseAddress,
                let found = memchr(base + start, 0x0A, raw.count - start)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// Appends up to ``readBytes`` bytes of the input to `buffer`, or marks the input finished.
    private mutating func readMore() throws {
        do {
            if try source.append(upTo: Self.readBytes, to: &buffer) == 0 { finished = true }
        } catch {
            throw CLIError.io(path: name, reason: error.reason)
        }
    }
}
