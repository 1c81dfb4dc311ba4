import NIOCore

/// Reads the chunk sizes of chunked request bodies on the bytes of a connection, before NIO's HTTP
/// parser, so that a body whose chunks announce more than the body limit is answered 413 at once
/// instead of waiting for bytes that may never come (NIO's parser reports no chunk size). A
/// ``ConnectionGuard`` puts one in front of the parser of its connection.
///
/// It passes every byte on unchanged and decides no framing of its own: the parser reads each
/// request head, and the guard tells how that head frames its body (``ConnectionGuard/Framing``).
/// The watcher only finds where each head ends (its empty line), then follows a `Content-Length`
/// body or the chunks of a chunked one to the end of the request. It checks itself against the
/// parser at every head and every end of a request; when the two disagree (a head the parser reads
/// otherwise, a malformed request the parser is about to refuse), it stops watching and passes the
/// rest of the connection on as it comes. It keeps a few integers per connection and allocates
/// nothing.
final class ChunkSizeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Where in the connection's bytes the watcher is.
    private enum Phase {
        /// In a request head; `run` counts the bytes of `\r\n\r\n` seen last.
        case head(run: Int)
        /// In a `Content-Length` body, with this many bytes to come.
        case lengthBody(remaining: Int)
        /// In a chunk-size line: the size so far, whether its digits ended (an extension or the
        /// line end follows), and how long the line is.
        case chunkSize(size: UInt64, digitsEnded: Bool, length: Int)
        /// In a chunk's data, with this many bytes to come, then its line end.
        case chunkData(remaining: UInt64)
        /// After a chunk's data: `\r\n` comes.
        case chunkEnd(seen: Int)
        /// In the trailer section after the last chunk; `atLineStart` while a line may begin.
        case trailer(atLineStart: Bool, sawCR: Bool)
        /// Not watching any more: out of step with the parser, or the request is refused.
        case stopped
        /// The body is refused as too large: nothing more is passed on.
        case refused
    }

    /// The longest chunk-size line followed (the size and its extensions); a longer one stops the
    /// watching, and the parser judges it.
    static let maximumChunkLine = 4096

    private let limit: UInt64
    private weak var connectionGuard: ConnectionGuard?
    private var phase = Phase.head(run: 0)
    /// The bytes the chunk sizes of the current body announce so far (at most the limit).
    private var announced: UInt64 = 0
    /// The requests whose heads (and ends) the guard had seen when the watcher passed the last head
    /// (end) on.
    private var headsPassed = 0

    init(limit: Int, connectionGuard: ConnectionGuard) {
        self.limit = UInt64(max(0, limit))
        self.connectionGuard = connectionGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .refused: return
        case .stopped: return context.fireChannelRead(data)
        default: break
        }
        let buffer = unwrapInboundIn(data)
        // Bytes are passed on in pieces: up to each head's end, so that the guard has read the head
        // before the body is followed, and up to each request's end, to check it against the parser.
        var start = buffer.readerIndex
        var index = start
        let end = buffer.writerIndex
        func pass(through last: Int) {
            guard last > start else { return }
            context.fireChannelRead(wrapInboundOut(buffer.getSlice(at: start, length: last - start)!))
            start = last
        }
        while index < end {
            switch phase {
            case .head(let run):
                let byte = buffer.getInteger(at: index, as: UInt8.self)!
                index += 1
                let next = Self.advance(run, byte)
                guard next == 4 else {
                    phase = .head(run: next)
                    continue
                }
                pass(through: index)
                follow()
            case .lengthBody(let remaining):
                let taken = min(remaining, end - index)
                index += taken
                if taken == remaining {
                    pass(through: index)
                    requestEnded()
                } else {
                    phase = .lengthBody(remaining: remaining - taken)
                }
            case .chunkSize(let size, let digitsEnded, let length):
                let byte = buffer.getInteger(at: index, as: UInt8.self)!
                let lineStart = index - length
                index += 1
                if !digitsEnded, let digit = Self.hexValue(byte) {
                    // A size beyond 64 bits is the parser's to refuse (400 bad-request).
                    let (times16, overflow1) = size.multipliedReportingOverflow(by: 16)
                    let (grown, overflow2) = times16.addingReportingOverflow(digit)
                    guard !overflow1, !overflow2 else { return stop(context: context, buffer, from: start) }
                    phase = .chunkSize(size: grown, digitsEnded: false, length: length + 1)
                    continue
                }
                if !digitsEnded, announced > limit || size > limit - announced {
                    // The digits ended: more than the limit announced, refused before the parser reads the line.
                    pass(through: lineStart)
                    return refuse()
                }
                if byte == UInt8(ascii: "\n") {
                    announced += size
                    phase = size == 0 ? .trailer(atLineStart: true, sawCR: false) : .chunkData(remaining: size)
                    continue
                }
                guard length < Self.maximumChunkLine else { return stop(context: context, buffer, from: start) }
                phase = .chunkSize(size: size, digitsEnded: true, length: length + 1)
            case .chunkData(let remaining):
                let taken = Int(min(remaining, UInt64(end - index)))
                index += taken
                if UInt64(taken) == remaining {
                    phase = .chunkEnd(seen: 0)
                } else {
                    phase = .chunkData(remaining: remaining - UInt64(taken))
                }
            case .chunkEnd(let seen):
                let byte = buffer.getInteger(at: index, as: UInt8.self)!
                index += 1
                let expected = seen == 0 ? UInt8(ascii: "\r") : UInt8(ascii: "\n")
                guard byte == expected else { return stop(context: context, buffer, from: start) }
                phase = seen == 0 ? .chunkEnd(seen: 1) : .chunkSize(size: 0, digitsEnded: false, length: 0)
            case .trailer(let atLineStart, let sawCR):
                let byte = buffer.getInteger(at: index, as: UInt8.self)!
                index += 1
                if byte == UInt8(ascii: "\n") {
                    if atLineStart {
                        pass(through: index)
                        requestEnded()
                    } else {
                        phase = .trailer(atLineStart: true, sawCR: false)
                    }
                } else if byte == UInt8(ascii: "\r"), atLineStart, !sawCR {
                    phase = .trailer(atLineStart: true, sawCR: true)
                } else {
                    phase = .trailer(atLineStart: false, sawCR: false)
                }
            case .stopped:
                return stop(context: context, buffer, from: start)
            case .refused:
                return
            }
        }
        pass(through: end)
    }

    /// After a head was passed on: follows its body as the guard says the parser frames it.
    private func follow() {
        guard let connectionGuard, connectionGuard.headsReceived == headsPassed + 1 else {
            phase = .stopped
            return
        }
        headsPassed += 1
        announced = 0
        switch connectionGuard.framing {
        case .none, .length(0): requestEnded()
        case .length(let length): phase = .lengthBody(remaining: length)
        case .chunked: phase = .chunkSize(size: 0, digitsEnded: false, length: 0)
        case .refused: phase = .refused
        }
    }

    /// After the end of a request was passed on: the parser must have seen it end too.
    private func requestEnded() {
        guard let connectionGuard, connectionGuard.requestsReceived == headsPassed else {
            phase = .stopped
            return
        }
        phase = .head(run: 0)
    }

    /// Stops watching and passes what is left of `buffer` on, from `start`.
    private func stop(context: ChannelHandlerContext, _ buffer: ByteBuffer, from start: Int) {
        phase = .stopped
        guard buffer.writerIndex > start else { return }
        context.fireChannelRead(wrapInboundOut(buffer.getSlice(at: start, length: buffer.writerIndex - start)!))
    }

    /// Refuses the body being read: nothing more of the connection is passed on, and the guard
    /// answers the request 413.
    private func refuse() {
        phase = .refused
        connectionGuard?.refuseChunkedBody(ChunkedBodyTooLargeError(limit: Int(limit)))
    }

    /// How many bytes of `\r\n\r\n` are matched after `byte`, given `run` matched before it.
    private static func advance(_ run: Int, _ byte: UInt8) -> Int {
        switch (run, byte) {
        case (0, UInt8(ascii: "\r")), (2, UInt8(ascii: "\r")): run + 1
        case (1, UInt8(ascii: "\n")), (3, UInt8(ascii: "\n")): run + 1
        case (_, UInt8(ascii: "\r")): 1
        default: 0
        }
    }

    /// The value of a hexadecimal digit, or `nil`.
    private static func hexValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
