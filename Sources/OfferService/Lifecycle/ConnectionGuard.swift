import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Guards one HTTP/1.1 connection against clients whose request body never ends: it sits between
/// NIO's HTTP codec and Hummingbird's request handling (``ServiceRunner`` adds one to every
/// connection).
///
/// - A request head that announces a `Content-Length` over the body limit stops reading the
///   connection at once: the service answers 413 without reading any of the body.
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
///
/// Per request it reads one header field and counts; it allocates nothing.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a closing connection stays open, unread, after its last response.
    static let linger = TimeAmount.milliseconds(500)

    private let maxBodyBytes: Int
    /// Requests received in full (their end has been read).
    private var requestsReceived = 0
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

    init(maxBodyBytes: Int, bodyTimeout: TimeAmount? = nil) {
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.bodyTimeout = bodyTimeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if ContentLength.exceeds(maxBodyBytes, in: head.headerFields) { reading = false }
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

    func channelReadComplete(context: ChannelHandlerContext) {
        if bodyPending, bodyTimer == nil, let bodyTimeout {
            bodyTimer = context.eventLoop.assumeIsolated().scheduleTask(in: bodyTimeout) { [self] in
                bodyTimer = nil
                guard bodyPending else { return }
                context.fireErrorCaught(BodyTimeoutError())
            }
        }
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        if reading { context.read() }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
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

    func channelInactive(context: ChannelHandlerContext) {
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
