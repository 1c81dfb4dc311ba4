import ArgumentParser

/// How `retention performance-test start --wait` and `result --wait` ask again while the test is
/// `PENDING`: `--poll-interval` and `--max-wait` (checked by `PerformanceTestReport.waiting`).
struct PerformanceTestWaitOptions: ParsableArguments {
    @Option(name: .customLong("poll-interval"), parsing: .unconditional, help: "Seconds between asks (1 to 600).")
    var pollInterval: Int?

    @Option(name: .customLong("max-wait"), parsing: .unconditional, help: "Seconds to wait at most (1 to 86400).")
    var maxWait: Int?
}
