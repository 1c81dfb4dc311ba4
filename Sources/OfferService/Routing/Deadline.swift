import Dispatch
import HummingbirdCore
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The request timeout of one operation: when it expires, the operation's task is cancelled,
/// whichever comes first, the expiry or the task being known.
///
/// The timer is scheduled on NIO's shared event loop group, on the calling thread's own loop when
/// it is one: far cheaper per request than a second task sleeping in a task group. When the
/// application turned NIO's singletons off, it is a Dispatch timer on a queue of its own.
final class Deadline: Sendable {
    private struct State {
        var task: Task<Response, any Error>?
        var expired = false
        var cancelTimer: (@Sendable () -> Void)?
    }
    private let state = NIOLockedValueBox(State())
    private static let fallbackQueue = DispatchQueue(label: "offerkit.service.deadlines")
    /// The time the work has, from ``start()``.
    let seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    /// Whether the deadline passed (and the task was, or is about to be, cancelled).
    var hasExpired: Bool { state.withLockedValue { $0.expired } }

    /// Starts the timer: ``expire()`` runs after ``seconds``.
    func start() {
        let nanoseconds = Int64(seconds * 1e9)
        let cancel: @Sendable () -> Void
        if NIOSingletons.singletonsEnabledSuggestion {
            let scheduled = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(nanoseconds)) {
                [weak self] in self?.expire()
            }
            cancel = { scheduled.cancel() }
        } else {
            let stopped = NIOLockedValueBox(false)
            Self.fallbackQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
                if !stopped.withLockedValue({ $0 }) { self?.expire() }
            }
            cancel = { stopped.withLockedValue { $0 = true } }
        }
        state.withLockedValue { $0.cancelTimer = cancel }
    }

    /// Stops the timer once the work is done, and lets go of the task.
    func stop() {
        let cancel = state.withLockedValue { state in
            defer { (state.task, state.cancelTimer) = (nil, nil) }
            return state.cancelTimer
        }
        cancel?()
    }

    /// Names the task to cancel; cancels it at once if the deadline already passed.
    func watch(_ task: Task<Response, any Error>) {
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
