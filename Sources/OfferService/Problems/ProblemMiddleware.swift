import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OfferSigning

/// Turns every error into an `application/problem+json` response: ``ServiceProblem`` as it is,
/// Hummingbird's own errors (no route, body too large) into their problem types, a wrong method
/// on a known path into 405 with `Allow`, and anything else into a 500 that exposes nothing.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    /// For 405: the methods each path takes.
    let methodsByPath: [String: [HTTPRequest.Method]]
    let metrics: ServiceMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as ServiceProblem {
            return respond(problem, context: context)
        } catch let error as NIOTooManyBytesError {
            _ = error
            return respond(Self.bodyTooLarge, context: context)
        } catch let error as HTTPError where error.status == .notFound {
            if let methods = methodsByPath[request.uri.path], !methods.contains(request.method) {
                let allow = methods.map(\.rawValue).joined(separator: ", ")
                return respond(
                    ServiceProblem(
                        .methodNotAllowed, detail: "\(request.uri.path) takes \(allow), not \(request.method.rawValue)",
                        headers: [("Allow", allow)]), context: context)
            }
            return respond(
                ServiceProblem(
                    .notFound, detail: "no endpoint at \(request.uri.path); the API is described at /openapi.json"),
                context: context)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return respond(Self.bodyTooLarge, context: context)
        } catch is CancellationError {
            return respond(ServiceProblem(.unavailable, detail: "the request was cancelled"), context: context)
        } catch {
            context.logger.error("internal error", metadata: ["error.type": "\(type(of: error))"])
            return respond(
                ServiceProblem(
                    .internalError,
                    detail: "the service failed to answer; the log has the details under request id "
                        + context.requestID), context: context)
        }
    }

    private static let bodyTooLarge = ServiceProblem(.bodyTooLarge, detail: "the request body is larger than the limit")

    private func respond(_ problem: ServiceProblem, context: Context) -> Response {
        metrics.problem(problem.type)
        context.logger.debug("problem", metadata: ["problem.type": "\(problem.type.slug)"])
        return Self.response(for: problem, requestID: context.requestID)
    }

    /// The problem response for `problem`.
    static func response(for problem: ServiceProblem, requestID: String) -> Response {
        var headers: HTTPFields = [.contentType: "application/problem+json", .cacheControl: "no-store"]
        for (name, value) in problem.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        let bytes = problem.jsonValue(requestID: requestID).serialized(pretty: false)
        return Response(
            status: problem.type.httpStatus, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
