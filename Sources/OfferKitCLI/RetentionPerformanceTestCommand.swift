import ArgumentParser

/// `offerkit retention performance-test …`: Apple's sandbox performance test of the endpoint.
struct RetentionPerformanceTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "performance-test",
        abstract: "Apple's sandbox performance test of the Get Retention Message endpoint (start, result).",
        subcommands: [RetentionPerformanceTestStart.self, RetentionPerformanceTestResult.self])
}
