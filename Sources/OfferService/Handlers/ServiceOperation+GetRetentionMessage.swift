import Dispatch
import Logging
import OfferRetentionEndpoint
import OfferServiceContract

extension ServiceOperation {
    /// `POST <retention.path>`: Apple's call while a customer looks at cancelling a subscription;
    /// answered by the service's ``RetentionEndpoint``.
    static func getRetentionMessage(path: String) -> ServiceOperation {
        ServiceOperation(.getRetentionMessage(path: path)) { request in
            try await answer(request)
        }
    }

    private static func answer(_ request: OperationRequest) async throws -> OperationResponse {
        guard let endpoint = request.state.retention else {
            throw ServiceProblem(.notFound, detail: "this service has no Get Retention Message endpoint")
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let outcome = await endpoint.responder.respond(to: request.rawBody ?? [])
        let elapsed = Int64(DispatchTime.now().uptimeNanoseconds - start)
        let metrics = request.state.metrics
        switch outcome {
        case .answered(let answer):
            metrics.retentionAnswered(answer.kind, nanoseconds: elapsed)
            var metadata: Logger.Metadata = [
                "retention.requestIdentifier": .string(answer.request.requestIdentifier.uuidString.lowercased()),
                "retention.app": .string(answer.bundleId), "retention.environment": .string(answer.request.environment),
                "retention.decision": .string(answer.kind.rawValue),
            ]
            if answer.replay != .fresh { metadata["retention.replay"] = .string(answer.replay.rawValue) }
            request.annotate(metadata)
            if let failure = answer.hookFailure {
                request.logger.warning(
                    failure == .stopped
                        ? "retention request stopped before the decider answered: answered {}"
                        : "retention decider failed: answered {} (Apple shows the default message)",
                    metadata: metadata.merging(["retention.failure": .string(failure.description)]) { $1 })
            }
            if answer.replay == .differentPayload {
                request.logger.notice(
                    "retention: a requestIdentifier answered before came with another payload: answered afresh",
                    metadata: metadata)
            }
            return OperationResponse(bytes: answer.body, mediaType: "application/json")
        case .unauthorized(let reason):
            metrics.retentionRejected(reason, nanoseconds: elapsed)
            request.annotate(["retention.rejection": .string(reason.rawValue)])
            throw ServiceProblem.unverifiedRequest
        }
    }
}
