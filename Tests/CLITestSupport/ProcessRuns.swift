import Testing

/// Runs every `offerkit` of a suite or test as a process of its own, never in-process (see ``CLI``):
/// for what only a process shows (exit statuses as the shell sees them, reads from FIFOs and bounded
/// stdin, processes racing on one ledger).
struct ProcessRuns: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await CLI.$processRuns.withValue(true) { try await function() }
    }
}

extension Trait where Self == ProcessRuns {
    /// Every `offerkit` of the suite or test runs as a process (``ProcessRuns``).
    static var processRuns: Self { Self() }
}
