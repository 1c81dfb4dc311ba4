// In-process signing benchmarks, run by `Benchmarks/run` (or `swift package benchmark` in
// Benchmarks/). Every benchmark does `operationsPerIteration` operations per measured iteration,
// split evenly over its threads, so `Benchmarks/run` turns the median wall-clock time of an
// iteration into operations per second the same way for all of them. The reference every ratio
// divides by is `raw P-256 sign`: swift-crypto signing a JWS-sized message, with nothing of ours
// around it.
import Benchmark
import Dispatch
import Foundation
import SigningWorkloads

/// Operations per measured iteration, for every benchmark (kept in step with `Benchmarks/run`).
let operationsPerIteration = 1_000

/// `Benchmarks/run --quick` sets `OFFERKIT_BENCHMARK_QUICK=true` to check the script, not to measure.
let quick = ProcessInfo.processInfo.environment["OFFERKIT_BENCHMARK_QUICK"] == "true"

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: quick ? .milliseconds(300) : .seconds(3),
        maxIterations: quick ? 10 : 1_000
    )
    let fixture = SigningFixture.shared

    measure("raw P-256 sign") { Workload.rawSign.run(on: fixture) }
    measure("raw P-256 sign", threads: 2) { Workload.rawSign.run(on: fixture) }
    measure("legacy signature") { Workload.legacy.run(on: fixture) }
    measure("V2 promotional offer JWS") { Workload.promotionalOffer.run(on: fixture) }
    measure("V2 promotional offer JWS", threads: 2) { Workload.promotionalOffer.run(on: fixture) }
    measure("introductory-offer eligibility JWS") { Workload.introductoryOffer.run(on: fixture) }
    measure("Advanced Commerce JWS, small") { Workload.advancedCommerceSmall.run(on: fixture) }
    measure("Advanced Commerce JWS, large") { Workload.advancedCommerceLarge.run(on: fixture) }
    measure("App Store Server API token") { Workload.serverAPIToken.run(on: fixture) }
}

/// Registers a benchmark that runs `operation` `operationsPerIteration` times per iteration,
/// shared evenly by `threads` threads that all use the same signer.
func measure(_ name: String, threads: Int = 1, _ operation: @escaping @Sendable () -> Void) {
    precondition(operationsPerIteration % threads == 0)
    let perThread = operationsPerIteration / threads
    Benchmark("\(name) ×\(threads)") { benchmark in
        precondition(benchmark.scaledIterations.count == operationsPerIteration)
        if threads == 1 {
            for _ in 0..<perThread { operation() }
        } else {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for _ in 0..<perThread { operation() }
            }
        }
    }
}
