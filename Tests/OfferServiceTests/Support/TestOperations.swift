import Foundation
import HTTPTypes
import InteropSupport
import OfferSigning

@testable import OfferService

/// Operations that exist only in tests, routed through the service's middlewares and responder.
enum TestOperations {
    static func operation(
        _ id: String, method: HTTPRequest.Method = .get, requestSchema: JSONSchema? = nil, runsLong: Bool = false,
        handler: @escaping @Sendable (OperationRequest) async throws -> OperationResponse
    ) -> ServiceOperation {
        ServiceOperation(
            id: id, method: method, path: "/test/\(id)", tag: "Test", summary: id, description: id,
            scope: .promotionalOffer, requestSchema: requestSchema, responseSchema: .object([]), problems: [],
            runsLong: runsLong, handler: handler)
    }

    /// Waits for a synchronous job of 0.3 s that never checks for cancellation (on a thread of its
    /// own, not Swift's pool), then answers.
    static let stubborn = operation("stubborn") { _ in
        await OwnedThread.run { OwnedThread.pause(0.3) }
        return OperationResponse(body: .object([("finished", .bool(true))]))
    }

    /// Waits for a synchronous job of 0.3 s that never checks for cancellation, then throws
    /// ``InternalFailure``.
    static let stubbornFailing = operation("stubborn-failing") { _ in
        await OwnedThread.run { OwnedThread.pause(0.3) }
        throw InternalFailure()
    }

    /// Answers whether its handler's task prefers the service's worker executor.
    static func whereItRuns(runsLong: Bool) -> ServiceOperation {
        operation(runsLong ? "long" : "short", runsLong: runsLong) { _ in
            let executor = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
            let onWorkers = executor == WorkerExecutor.shared.asUnownedTaskExecutor()
            return OperationResponse(body: .object([("workers", .bool(onWorkers))]))
        }
    }

    /// Never finishes unless cancelled.
    static let slow = operation("slow") { _ in
        try await Task.sleep(nanoseconds: 86_400 * 1_000_000_000)
        return OperationResponse(body: .object([]))
    }

    /// An error whose text and type name must never reach a response.
    struct InternalFailure: Error, CustomStringConvertible {
        var description: String {
            "InternalFailure: database password hunter2 at /srv/secret; " + DemoKeyMaterial.forms[0]
        }
    }

    /// Throws ``InternalFailure``.
    static let failing = operation("failing") { _ in throw InternalFailure() }

    /// Throws a signing-library validation error.
    static let libraryError = operation("library-error") { _ in
        throw RequestValidationError.empty(field: "items[0].SKU")
    }

    /// Takes `{"a": {"b": [{"c": "…"}, …]}}` (b: 1–3 elements).
    static let nested = operation(
        "nested", method: .post,
        requestSchema: JSONSchema.object([
            .init(
                "a",
                .object([
                    .init("b", .array(of: .object([.init("c", .string(.identifier()))]), minItems: 1, maxItems: 3))
                ]))
        ]).named("Nested")
    ) { request in
        request.logger.info("nested handler ran")
        return OperationResponse(body: .object([("ok", .bool(true))]), noStore: false)
    }
}
