import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import OfferService

extension FuzzTarget {
    /// The bytes of one connection, in pieces, through NIO's HTTP/1.1 parser alone and through the
    /// parser behind the service's `ConnectionGuard` (with its chunk-size watcher in front of the
    /// parser, a body limit of 64 bytes). The guard never changes what the parser reads: what passes
    /// it is a prefix of what the parser reads alone (body bytes counted one by one); it only stops
    /// early (a refused `Transfer-Encoding`, chunk sizes over the limit). Neither traps.
    static func fuzzHTTPFraming(_ input: [UInt8]) {
        guard input.count <= 1 << 16 else { return }
        let alone = framingEvents(input, guarded: false)
        let guarded = framingEvents(input, guarded: true)
        check(
            guarded.count <= alone.count && alone.prefix(guarded.count).elementsEqual(guarded),
            "the guard changed what the parser reads")
    }

    /// What reaches the service: heads, body bytes one by one, ends.
    private enum FramingEvent: Equatable {
        case head(HTTPRequest)
        case byte(UInt8)
        case end
    }

    /// The events `input` makes through the parser (behind the guard when `guarded`), written in
    /// pieces whose size the first byte gives, until the pipeline reports an error.
    private static func framingEvents(_ input: [UInt8], guarded: Bool) -> [FramingEvent] {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        do {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            if guarded { try pipeline.addHandler(ConnectionGuard(maxBodyBytes: 64)) }
        } catch {
            fatalError("the HTTP pipeline cannot be set up: \(error)")
        }
        let pieceSize = Int(input.first ?? 0) % 16 + 1
        var events: [FramingEvent] = []
        var offset = 0
        while offset < input.count {
            let piece = input[offset..<min(offset + pieceSize, input.count)]
            offset += piece.count
            do {
                try channel.writeInbound(ByteBuffer(bytes: piece))
            } catch {
                break
            }
            while let part = try? channel.readInbound(as: HTTPRequestPart.self) {
                switch part {
                case .head(let head): events.append(.head(head))
                case .body(let buffer): events += buffer.readableBytesView.map(FramingEvent.byte)
                case .end: events.append(.end)
                }
            }
        }
        return events
    }
}
