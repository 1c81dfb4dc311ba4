// swift-tools-version:6.1
// The benchmarks live in their own package so that they never slow the main build or its tests.
// Run them with `Benchmarks/run` from the project root; it prints one table.
import PackageDescription

let package = Package(
    name: "OfferKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OfferKit", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        // As the main package has it (no default traits), so the shared scratch folder builds Hummingbird once.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
    ],
    targets: [
        // The signer and requests every measurement uses, shared with the profiling driver.
        .target(
            name: "SigningWorkloads",
            dependencies: [
                .product(name: "OfferSigning", package: "OfferKit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "OfferKitBenchmarks",
            dependencies: ["SigningWorkloads", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/OfferKitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Runs one workload in a loop for perf or valgrind: `offerkit-profile NAME COUNT`.
        .executableTarget(name: "offerkit-profile", dependencies: ["SigningWorkloads"]),
        // Claims per second on each ledger backend, from several processes: `offerkit-ledger-bench run …`.
        .executableTarget(
            name: "offerkit-ledger-bench",
            dependencies: [
                .product(name: "OfferCodes", package: "OfferKit"),
                .product(name: "OfferLedger", package: "OfferKit"),
                .product(name: "OfferLedgerPostgres", package: "OfferKit"),
            ]
        ),
        // The HTTP floor: a bare Hummingbird app answering `GET /healthz` (`bare-hummingbird [PORT]`).
        .executableTarget(
            name: "bare-hummingbird",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
