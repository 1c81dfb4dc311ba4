/// A lock that tasks wait for without holding a thread: one holder at a time, the others
/// suspended in the order they came. The SQLite store runs each transaction on its connection
/// under it, so that the statements of one transaction, sent one after the other, never mix
/// with another's.
final class AsyncGate: Sendable {
    private struct State {
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = LockedValue(State())

    /// Runs `body` holding the gate.
    func run<T>(_ body: () async throws -> T) async rethrows -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        let entered = state.withLock { state -> Bool in
            guard state.held else {
                state.held = true
                return true
            }
            return false
        }
        if entered { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard state.held else {
                    state.held = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Hands the gate to the next waiter (which then holds it), or opens it.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
