import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The request timeout of one operation: when it expires, the operation's task is cancelled,
/// whichever comes first, the expiry or the task being known.
///
/// The timer runs on one of NIO's shared event loops, which costs far less per request than a
/// second task sleeping in a task group (Dispatch timers). When the application turned NIO's
/// singletons off, it is a Dispatch timer after all.
final class Deadline: Sendable {
    private let state = NIOLockedValueBox<(task: Task<OperationResponse, any Error>?, expired: Bool)>((nil, false))
    private let cancelTimer: NIOLockedValueBox<(@Sendable () -> Void)?> = NIOLockedValueBox(nil)

    /// Whether the deadline passed (and the task was, or is about to be, cancelled).
    var hasExpired: Bool { state.withLockedValue { $0.expired } }

    /// Starts the timer: ``expire()`` runs after `seconds`.
    func start(seconds: Double) {
        let nanoseconds = Int64(seconds * 1e9)
        let cancel: @Sendable () -> Void
        if NIOSingletons.singletonsEnabledSuggestion {
            let scheduled = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: .nanoseconds(nanoseconds)) {
                self.expire()
            }
            cancel = { scheduled.cancel() }
        } else {
            let stopped = NIOLockedValueBox(false)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
                if !stopped.withLockedValue({ $0 }) { self.expire() }
            }
            cancel = { stopped.withLockedValue { $0 = true } }
        }
        cancelTimer.withLockedValue { $0 = cancel }
    }

    /// Stops the timer once the work is done.
    func stop() {
        cancelTimer.withLockedValue { $0 }?()
    }

    /// Names the task to cancel; cancels it at once if the deadline already passed.
    func watch(_ task: Task<OperationResponse, any Error>) {
        let expired = state.withLockedValue { state in
            state.task = task
            return state.expired
        }
        if expired { task.cancel() }
    }

    func expire() {
        let task = state.withLockedValue { state in
            state.expired = true
            return state.task
        }
        task?.cancel()
    }
}
