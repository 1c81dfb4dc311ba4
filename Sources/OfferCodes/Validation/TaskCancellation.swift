/// Cooperative cancellation for the long loops of validation and planning.
///
/// Outside a task (the command-line tool's synchronous code) nothing is ever cancelled, so the
/// checks cost a flag read and never throw.
enum TaskCancellation {
    /// - Throws: `CancellationError` when the current task has been cancelled.
    static func check() throws(CancellationError) {
        if Task.isCancelled { throw CancellationError() }
    }
}
