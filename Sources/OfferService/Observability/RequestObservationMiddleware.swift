import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OfferJSON
import OfferSigning

/// The outermost middleware: gives each request its id (the caller's `X-Request-Id` when it is
/// 1–128 characters of `A–Z a–z 0–9 . _ : -`, otherwise a fresh one), puts it in the logger's
/// metadata and the response, logs one line per request (method, path, status, operation, API key
/// name, duration), names the service in the `Server` header (`offerkit/VERSION`) and records its metrics under the operation's `operationId` (`unmatched` when
/// no route matched).
struct RequestObservationMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let metrics: ServiceMetrics

    static let requestIdField = HTTPField.Name("X-Request-Id")!

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.requestId = Self.requestId(from: request.headers[Self.requestIdField])
        context.logger[metadataKey: "request.id"] = .string(context.requestId)
        let start = DispatchTime.now().uptimeNanoseconds
        var response = try await next(request, context)
        let elapsed = Int64(DispatchTime.now().uptimeNanoseconds - start)
        response.headers[Self.requestIdField] = context.requestId
        response.headers[.server] = OfferService.serverHeader
        let operation = context.operationId ?? "unmatched"
        metrics.request(operation: operation, status: response.status.code, nanoseconds: elapsed)
        var metadata: Logger.Metadata = [
            "http.method": .string(request.method.rawValue), "http.path": .string(request.uri.path),
            "http.status": .stringConvertible(response.status.code), "operation": .string(operation),
            "duration.ms": .string(Self.milliseconds(elapsed)),
        ]
        if let name = context.apiKeyName { metadata["api.key"] = .string(name) }
        metadata.merge(context.logMetadata) { current, _ in current }
        context.logger.info("request", metadata: metadata)
        return response
    }

    /// Nanoseconds as milliseconds with three decimals (`0.721`), without `String(format:)`,
    /// which costs microseconds on every request.
    static func milliseconds(_ nanoseconds: Int64) -> String {
        let microseconds = (min(max(0, nanoseconds), Int64.max - 500) + 500) / 1000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The caller's id when well formed, otherwise 16 random hexadecimal digits.
    static func requestId(from header: String?) -> String {
        if let header, (1...128).contains(header.utf8.count),
            header.utf8.allSatisfy({
                $0.isASCIIAlphanumeric
                    || [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-")].contains($0)
            })
        {
            return header
        }
        var random = SystemRandom()
        return Hex.padded(random.next(), digits: 16, uppercase: false)
    }
}
