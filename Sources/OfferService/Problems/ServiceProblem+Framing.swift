import NIOCore
import NIOHTTP1

extension ServiceProblem {
    /// A request whose HTTP/1.1 framing NIO's parser refused while the body was being read: the
    /// client's fault, answered 400 `bad-request` (never a 500), and the connection is closed.
    public static func badRequest(_ error: HTTPParserError) -> ServiceProblem {
        let what: String
        switch error {
        case .invalidEOFState, .closedConnection:
            what = bodyEndedEarly
        case .invalidChunkSize:
            what = "a chunk size is not a hexadecimal number of at most 16 digits"
        case .invalidContentLength, .unexpectedContentLength:
            what = "Content-Length must be one non-negative decimal number, and not come with Transfer-Encoding"
        case .unknown:
            // llhttp reports an invalid Transfer-Encoding (anything but `chunked` last) this way.
            what = "the framing is invalid (for instance a Transfer-Encoding other than chunked, the only one taken)"
        default:
            what = "the request is not well-formed HTTP/1.1"
        }
        return badRequest(what, parser: "\(error)")
    }

    /// A request whose `Transfer-Encoding` is not `chunked` alone (``TransferEncoding``): 400
    /// `bad-request`, its body not read, the connection closed.
    static let unacceptableTransferEncoding = ServiceProblem(
        .badRequest,
        detail: "Transfer-Encoding must be chunked alone, in one field: the service decodes no other coding, and a "
            + "proxy may frame such a body otherwise; the body was not read and the connection is closed")

    /// A connection that failed while its request body was being read (the client reset it).
    static func brokenConnection(_ error: any Error) -> ServiceProblem {
        let reason: String
        if let error = error as? IOError {
            reason = "errno \(error.errnoCode)"
        } else {
            reason = "\(error)"
        }
        return ServiceProblem(
            .badRequest, detail: "the connection failed while the request body was being read (\(reason))")
    }
}
