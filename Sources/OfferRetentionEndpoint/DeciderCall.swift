import NIOConcurrencyHelpers
import OfferAppleVerification

/// Asks a ``RetentionDecider`` under a time budget: the decision, or why there is none.
///
/// The decider runs in a task of its own and a timer in another; whichever ends first answers,
/// and the other is cancelled. A decider that ignores cancellation keeps running, but the request
/// does not wait for it.
///
/// The timer starts when the decider's task starts running, as the service's request timeout
/// starts with the work: time the decider's task spends waiting for a thread (a busy machine)
/// does not count against the decider. So the budget does not bound how long the caller waits on
/// a starved machine; the service's request timeout does (a stopped request is ``RetentionHookFailure/stopped``).
enum DeciderCall {
    static func decide(
        _ decider: any RetentionDecider, request: DecodedRealtimeRequestBody, bundleId: String, budget: Duration
    ) async -> Result<RetentionDecision, RetentionHookFailure> {
        let race = Race()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Already stopped (the caller was cancelled before the call): the decider is not asked.
                guard race.begin(continuation) else { return }
                let work = Task {
                    let timer = Task {
                        try? await Task.sleep(for: budget)
                        if !Task.isCancelled { race.finish(.failure(.overran(budget: budget))) }
                    }
                    race.attach(timer: timer)
                    do {
                        race.finish(.success(try await decider.decide(for: request, bundleId: bundleId)))
                    } catch {
                        race.finish(.failure(.threw(errorType: String(reflecting: type(of: error)))))
                    }
                }
                race.attach(work: work)
            }
        } onCancel: {
            race.finish(.failure(.stopped))
        }
    }

    /// The first of the decider and the timer to finish resumes the caller.
    private final class Race: Sendable {
        typealias Outcome = Result<RetentionDecision, RetentionHookFailure>

        private struct State {
            var continuation: CheckedContinuation<Outcome, Never>?
            /// The first result, kept when it comes before the continuation (a cancelled caller).
            var result: Outcome?
            var work: Task<Void, Never>?
            var timer: Task<Void, Never>?
        }
        private let state = NIOLockedValueBox(State())

        /// Keeps the continuation for the first result; resumes it at once and answers `false`
        /// when the race is already over.
        func begin(_ continuation: CheckedContinuation<Outcome, Never>) -> Bool {
            let early = state.withLockedValue { state in
                if state.result == nil { state.continuation = continuation }
                return state.result
            }
            guard let early else { return true }
            continuation.resume(returning: early)
            return false
        }

        /// Keeps the decider's task to cancel; cancels it at once when the race is already over.
        func attach(work: Task<Void, Never>) {
            let over = state.withLockedValue { state in
                if state.result == nil { state.work = work }
                return state.result != nil
            }
            if over { work.cancel() }
        }

        /// Keeps the timer to cancel; cancels it at once when the race is already over.
        func attach(timer: Task<Void, Never>) {
            let over = state.withLockedValue { state in
                if state.result == nil { state.timer = timer }
                return state.result != nil
            }
            if over { timer.cancel() }
        }

        func finish(_ result: Outcome) {
            let (continuation, work, timer) = state.withLockedValue {
                state -> (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?, Task<Void, Never>?) in
                guard state.result == nil else { return (nil, nil, nil) }
                state.result = result
                defer { (state.continuation, state.work, state.timer) = (nil, nil, nil) }
                return (state.continuation, state.work, state.timer)
            }
            continuation?.resume(returning: result)
            timer?.cancel()
            work?.cancel()
        }
    }
}
