/// Commits the claims of one process in groups: a claim that arrives while another group is
/// being committed waits for the next group, and each group is one transaction, one `fsync`
/// (SQLite's write-ahead log with `synchronous = FULL` syncs on each commit). Every claim is
/// answered only once its group has committed.
///
/// The first claim to find no group under way leads: it commits the claims waiting then (its own
/// among them), answers them, and hands the lead to the first claim that came meanwhile, if any.
/// No task of its own, no thread: the claims' own tasks do the work.
///
/// A claim whose task is cancelled while it waits for its group (not yet taken into one, and
/// not handed the lead) leaves the queue and throws `CancellationError`: it is never committed.
/// Once its group is being committed, it waits for the commit like the others.
final class GroupCommit<Request: Sendable, Outcome: Sendable>: Sendable {
    /// One claim waiting for its group.
    private final class Entry: Sendable {
        enum Wake {
            case done(Result<Outcome, any Error>)
            case lead
        }
        private enum State {
            case waiting(CheckedContinuation<Wake, Never>?)
            case woken(Wake)
        }
        let request: Request
        private let state = LockedValue(State.waiting(nil))

        init(_ request: Request) { self.request = request }

        func wait() async -> Wake {
            await withCheckedContinuation { continuation in
                let woken = state.withLock { state -> Wake? in
                    if case .woken(let wake) = state { return wake }
                    state = .waiting(continuation)
                    return nil
                }
                if let woken { continuation.resume(returning: woken) }
            }
        }

        /// Wakes the entry's task (a result also replaces the lead it was handed).
        func wake(_ wake: Wake) {
            let continuation = state.withLock { state -> CheckedContinuation<Wake, Never>? in
                switch state {
                case .waiting(let continuation):
                    state = .woken(wake)
                    return continuation
                case .woken(.lead):
                    if case .done = wake { state = .woken(wake) }
                    return nil
                case .woken(.done):
                    return nil
                }
            }
            continuation?.resume(returning: wake)
        }

        /// The result once the entry's group committed (its own leader reads it).
        var result: Result<Outcome, any Error>? {
            state.withLock { state in
                if case .woken(.done(let result)) = state { return result }
                return nil
            }
        }
    }

    private struct State {
        var queue: [Entry] = []
        var leading = false
        /// The claim that leads next (it stays in the queue until it takes its group), which
        /// cancellation leaves in place.
        var designated: Entry?
    }
    private let state = LockedValue(State())
    /// Commits a group: one result per request, in order (a failure of the whole group, such as
    /// a failed commit, throws).
    private let commit: @Sendable ([Request]) async throws -> [Result<Outcome, any Error>]

    init(_ commit: @escaping @Sendable ([Request]) async throws -> [Result<Outcome, any Error>]) {
        self.commit = commit
    }

    /// The outcome of `request`, once its group committed.
    func submit(_ request: Request) async throws -> Outcome {
        try Task.checkCancellation()
        let entry = Entry(request)
        let leads = state.withLock { state -> Bool in
            state.queue.append(entry)
            guard !state.leading else { return false }
            state.leading = true
            state.designated = entry
            return true
        }
        if !leads {
            let wake = await withTaskCancellationHandler {
                await entry.wait()
            } onCancel: {
                let left = state.withLock { state -> Bool in
                    guard state.designated !== entry, let index = state.queue.firstIndex(where: { $0 === entry })
                    else { return false }
                    state.queue.remove(at: index)
                    return true
                }
                if left { entry.wake(.done(.failure(CancellationError()))) }
            }
            if case .done(let result) = wake { return try result.get() }
        }
        // Leading: commit everything waiting now, answer it, and hand the lead on.
        let group = state.withLock { state -> [Entry] in
            defer {
                state.queue = []
                state.designated = nil
            }
            return state.queue
        }
        var results: [Result<Outcome, any Error>]
        do {
            results = try await commit(group.map(\.request))
        } catch {
            results = group.map { _ in .failure(error) }
        }
        if results.count != group.count {
            let error = LedgerError.databaseFailure(
                operation: "claim a code", reason: "a group of claims lost its answers")
            results = group.map { _ in .failure(error) }
        }
        for (member, result) in zip(group, results) { member.wake(.done(result)) }
        let next = state.withLock { state -> Entry? in
            guard let first = state.queue.first else {
                state.leading = false
                return nil
            }
            state.designated = first
            return first
        }
        next?.wake(.lead)
        guard let result = entry.result else {
            throw LedgerError.databaseFailure(operation: "claim a code", reason: "the claim was not committed")
        }
        return try result.get()
    }
}
