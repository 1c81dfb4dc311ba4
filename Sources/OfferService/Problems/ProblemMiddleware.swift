import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import OfferJSON
import OfferSigning

/// Turns every error into an `application/problem+json` response: ``ServiceProblem`` as it is,
/// Hummingbird's own errors (no route, body too large) into their problem types, NIO's HTTP parser
/// errors (broken framing: the client's fault) into 400 `bad-request`, a wrong method on a known
/// path into 405 with `Allow`, a signing library validation error that a handler let through into
/// 422, and anything else into a 500 that exposes nothing. Problems that leave the request unread
/// (``ProblemType/closesConnection``) answer with `Connection: close`.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    /// For 405: the methods each path takes.
    let methodsByPath: [String: [HTTPRequest.Method]]
    let metrics: ServiceMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // Before any route: a body framed by another coding than `chunked` alone is not read at all
        // (ConnectionGuard passes nothing after such a head on).
        guard TransferEncoding.isAcceptable(request.headers) else {
            return respond(.unacceptableTransferEncoding, context: context)
        }
        do {
            return try await next(request, context)
        } catch let problem as ServiceProblem {
            return respond(problem, context: context)
        } catch let error as HTTPParserError {
            return respond(.badRequest(error), context: context)
        } catch let error as NIOTooManyBytesError {
            return respond(.bodyTooLarge(limit: error.maxBytes), context: context)
        } catch let error as ChunkedBodyTooLargeError {
            return respond(.bodyTooLarge(limit: error.limit), context: context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = Self.clipped(request.uri.path)
            if let methods = Self.methods(for: request.uri.path, in: methodsByPath), !methods.contains(request.method) {
                let allow = methods.map(\.rawValue).joined(separator: ", ")
                return respond(
                    ServiceProblem(
                        .methodNotAllowed, detail: "\(path) takes \(allow), not \(request.method.rawValue)",
                        headers: [("Allow", allow)]), context: context)
            }
            return respond(
                ServiceProblem(.notFound, detail: "no endpoint at \(path); the API is described at /openapi.json"),
                context: context)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return respond(.bodyTooLarge(limit: nil), context: context)
        } catch let error as RequestValidationError {
            return respond(.invalid(error), context: context)
        } catch is CancellationError {
            return respond(ServiceProblem(.unavailable, detail: "the request was cancelled"), context: context)
        } catch {
            // Only the error's type goes to the log: an arbitrary error's text could hold anything,
            // key material included.
            context.logger.error(
                "internal error", metadata: ["error.type": "\(String(reflecting: type(of: error)))"])
            return respond(
                ServiceProblem(
                    .internalError,
                    detail: "the service failed to answer; the log has the details under request id "
                        + context.requestId), context: context)
        }
    }

    private func respond(_ problem: ServiceProblem, context: Context) -> Response {
        metrics.problem(problem.type)
        context.logger.debug("problem", metadata: ["problem.type": "\(problem.type.slug)"])
        return Self.response(for: problem, requestId: context.requestId)
    }

    /// The methods `path` takes: its own entry, or that of a template whose `{parameter}` segments
    /// match any non-empty segment (`/v1/campaigns/{name}/status`).
    static func methods(
        for path: String, in table: [String: [HTTPRequest.Method]]
    ) -> [HTTPRequest.Method]? {
        if let methods = table[path] { return methods }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (template, methods) in table where template.contains("{") {
            let parts = template.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == segments.count else { continue }
            let matches = zip(parts, segments).allSatisfy { part, segment in
                part.hasPrefix("{") ? !segment.isEmpty : part == segment
            }
            if matches { return methods }
        }
        return nil
    }

    /// A request path for a message, cut at 200 characters.
    private static func clipped(_ path: String) -> String {
        path.unicodeScalars.count > 200 ? String(String.UnicodeScalarView(path.unicodeScalars.prefix(200))) + "…" : path
    }

    /// The problem response for `problem`.
    static func response(for problem: ServiceProblem, requestId: String) -> Response {
        var headers: HTTPFields = [.contentType: "application/problem+json", .cacheControl: "no-store"]
        if problem.type.closesConnection { headers[.connection] = "close" }
        for (name, value) in problem.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        let bytes = problem.jsonValue(requestId: requestId).serialized(pretty: false)
        return Response(
            status: problem.type.httpStatus, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
