import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Guards one HTTP/1.1 connection against clients whose request body never ends: it sits between
/// NIO's HTTP codec and Hummingbird's request handling (``ServiceRunner`` adds one to every
/// connection).
///
/// - A request head that announces a `Content-Length` over the body limit stops reading the
///   connection at once: the service answers 413 without reading any of the body. A chunked body
///   whose chunk sizes announce more than the limit is refused as soon as a size says so (a
///   ``ChunkSizeWatcher`` in front of NIO's parser reads them): the request's body read fails with
///   ``ChunkedBodyTooLargeError`` (a 413), and nothing more is read.
/// - A request head with a `Transfer-Encoding` other than `chunked` alone (``TransferEncoding``)
///   stops reading the connection, and nothing after the head is passed on: the service answers 400
///   without reading a body a proxy may frame otherwise.
/// - A response that starts before its request has arrived in full (a body refused, cut short or
///   broken, or an early answer such as 401), or that says `Connection: close`, is sent with
///   `Connection: close`; then the connection's output is closed, nothing more is read, and the
///   connection is closed after ``linger`` (the pause lets the client read the answer before any
///   reset caused by the bytes it still sends). Hummingbird itself would read the rest of the body,
///   however long, to reach the next request.
///
/// - A request whose body has not arrived in full within ``bodyTimeout`` of its head gets a
///   ``BodyTimeoutError`` where its body is read (a 408 `body-timeout`). The timer is only
///   scheduled when a read ends with the body still incomplete; most requests arrive whole in one.
///   Time in which the service did not read (its request tasks behind, their buffer full) is not
///   the client's: a timer that expires then starts again when the service reads on.
///
/// Per request it reads one header field and counts; it allocates nothing.
package final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart

    /// How long a closing connection stays open, unread, after its last response.
    static let linger = TimeAmount.milliseconds(500)

    private let maxBodyBytes: Int
    /// How a request head frames its body, as NIO's parser reads it.
    enum Framing: Equatable {
        /// No body.
        case none
        /// A body of this many bytes (`Content-Length`).
        case length(Int)
        /// A chunked body.
        case chunked
        /// A `Transfer-Encoding` the service refuses: nothing after the head is read.
        case refused
    }

    /// Request heads received.
    private(set) var headsReceived = 0
    /// How the last head received frames its body.
    private(set) var framing = Framing.none
    /// Requests received in full (their end has been read).
    private(set) var requestsReceived = 0
    /// Whether what NIO's parser passes on is dropped: the request is refused without its body.
    private var discarding = false
    /// The connection's context, while the guard is in its pipeline: the ``ChunkSizeWatcher`` reports
    /// through it.
    private var context: ChannelHandlerContext?
    /// Final (non-1xx) responses begun.
    private var responsesStarted = 0
    /// Whether the connection is still read from.
    private var reading = true
    /// Whether the response being written is the connection's last.
    private var closing = false
    /// Whether the last response has been written and the output closed.
    private var finished = false
    private var lingerTimer: Scheduled<Void>?
    /// How long a request's body may take to arrive after its head; `nil`: no limit here.
    private let bodyTimeout: TimeAmount?
    /// Whether a request's head has arrived and its end not yet.
    private var bodyPending = false
    private var bodyTimer: Scheduled<Void>?
    /// Whether the handlers after this one asked for more bytes (`read`) and none came yet. A body
    /// timer that expires while they did not (their buffer is full: the service, not the client, is
    /// behind) starts again when they ask.
    private var readRequested = false

    package init(maxBodyBytes: Int, bodyTimeout: TimeAmount? = nil) {
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.bodyTimeout = bodyTimeout
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // The watcher reads the bytes before NIO's parser does.
        let pipeline = context.pipeline.syncOperations
        guard let parser = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else { return }
        try? pipeline.addHandler(
            ChunkSizeWatcher(limit: maxBodyBytes, connectionGuard: self), position: .before(parser))
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !discarding else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            headsReceived += 1
            let fields = head.headerFields
            if !TransferEncoding.isAcceptable(fields) {
                // The head goes on (ProblemMiddleware answers 400); nothing after it does.
                framing = .refused
                reading = false
                discarding = true
            } else if TransferEncoding.isChunked(fields) {
                framing = .chunked
            } else {
                framing = ContentLength.value(in: fields).map(Framing.length) ?? .none
            }
            if ContentLength.exceeds(maxBodyBytes, in: fields) { reading = false }
            bodyPending = true
        case .body:
            break
        case .end:
            requestsReceived += 1
            bodyPending = false
            bodyTimer?.cancel()
            bodyTimer = nil
        }
        context.fireChannelRead(data)
    }

    /// Refuses the chunked body being read (``ChunkSizeWatcher``): its read fails with `error` (a
    /// 413), and the connection is not read any more.
    func refuseChunkedBody(_ error: ChunkedBodyTooLargeError) {
        reading = false
        discarding = true
        bodyTimer?.cancel()
        bodyTimer = nil
        context?.fireErrorCaught(error)
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        readRequested = false
        scheduleBodyTimer(context: context)
        context.fireChannelReadComplete()
    }

    package func read(context: ChannelHandlerContext) {
        if reading {
            readRequested = true
            scheduleBodyTimer(context: context)
            context.read()
        }
    }

    /// Times the pending body, unless it is timed already.
    private func scheduleBodyTimer(context: ChannelHandlerContext) {
        guard bodyPending, bodyTimer == nil, let bodyTimeout else { return }
        bodyTimer = context.eventLoop.assumeIsolated().scheduleTask(in: bodyTimeout) { [self] in
            bodyTimer = nil
            // Not read because nothing asked for it: the next `read` times the body again.
            guard bodyPending, readRequested else { return }
            context.fireErrorCaught(BodyTimeoutError())
        }
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !finished else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var response) where response.status.kind != .informational:
            responsesStarted += 1
            // Its request is the `responsesStarted`-th (HTTP/1.1 answers in order).
            let requestIncomplete = requestsReceived < responsesStarted
            if requestIncomplete || (response.status.code >= 400 && Self.saysClose(response.headerFields)) {
                closing = true
                reading = false
                if requestIncomplete { response.headerFields[.connection] = "close" }
                context.write(wrapOutboundOut(.head(response)), promise: promise)
                return
            }
        case .end where closing:
            finished = true
            context.writeAndFlush(data, promise: promise)
            context.close(mode: .output, promise: nil)
            lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.linger) {
                context.close(promise: nil)
            }
            return
        default:
            break
        }
        context.write(data, promise: promise)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        lingerTimer?.cancel()
        lingerTimer = nil
        bodyTimer?.cancel()
        bodyTimer = nil
        context.fireChannelInactive()
    }

    /// Whether `fields` have `Connection: close`.
    private static func saysClose(_ fields: HTTPFields) -> Bool {
        for field in fields where field.name == .connection {
            let bytes = Array(field.value.utf8)[...]
            if bytes.split(separator: UInt8(ascii: ",")).contains(where: {
                ASCIIText.equalIgnoringCase(ASCIIText.trimmingBlanks($0), "close")
            }) {
                return true
            }
        }
        return false
    }
}
