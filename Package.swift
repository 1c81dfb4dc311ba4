// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "OfferKit",
    // macOS 15: the service and the PostgreSQL claim use task executors (`TaskExecutor`,
    // `withTaskExecutorPreference`), and the tests Synchronization's `Mutex`.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OfferSigning", targets: ["OfferSigning"]),
        .library(name: "OfferCodes", targets: ["OfferCodes"]),
        .library(name: "OfferLedger", targets: ["OfferLedger"]),
        .library(name: "OfferServiceContract", targets: ["OfferServiceContract"]),
        .library(name: "OfferService", targets: ["OfferService"]),
        .library(name: "OfferSnippets", targets: ["OfferSnippets"]),
        .library(name: "OfferLedgerPostgres", targets: ["OfferLedgerPostgres"]),
        .library(name: "OfferAppleVerification", targets: ["OfferAppleVerification"]),
        .library(name: "OfferRetentionEndpoint", targets: ["OfferRetentionEndpoint"]),
        .library(name: "OfferRetentionEndpointTesting", targets: ["OfferRetentionEndpointTesting"]),
        .executable(name: "offerkit", targets: ["offerkit"]),
    ],
    traits: [
        // On by default. Off (`swift build --disable-default-traits --product offerkit`), `offerkit` has its
        // `sign` commands only and builds OfferSigning, swift-crypto and swift-argument-parser, nothing else.
        .trait(
            name: "AllCommands",
            description: "Every command of offerkit; without it, offerkit has only its sign commands and builds "
                + "only what signing needs."),
        .default(enabledTraits: ["AllCommands"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // No default traits: ConfigurationSupport builds swift-configuration, which OfferKit never uses.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // `swift package generate-documentation`: a library product's DocC catalog (the README; .ci/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        // The strict JSON parser, the JSON writer, base64 and hex: what every library reads and writes with.
        .target(name: "OfferJSON"),
        .target(
            name: "OfferSigning",
            dependencies: ["OfferJSON", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Offer-code campaigns: validation, App Store Connect requests, code generation, CSV import,
        // exports, and the values a ledger records (batches, issued codes, assignments). No database.
        .target(
            name: "OfferCodes",
            dependencies: [
                "OfferJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // The code ledger: its decisions (what to hand out, limits, checks, status), its locator, the
        // copy between ledgers, and the SQLite store (GRDB). PostgreSQL is in OfferLedgerPostgres.
        .target(
            name: "OfferLedger",
            dependencies: [
                "OfferJSON", "OfferCodes",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Verifying what Apple signs (transactions, renewal info, notifications V2, real-time requests):
        // the x5c chain to a trusted root, Apple's OIDs, the ES256 signature. No networking: the fuzz targets reach it.
        // OfferSigning: its PEM reader (PEMBlock) reads root certificates.
        .target(
            name: "OfferAppleVerification",
            dependencies: [
                "OfferJSON", "OfferSigning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // The Get Retention Message endpoint's engine (Retention Messaging): rules, decisions, the decider
        // hook, verified requests answered with offers signed on the spot, the replay cache. No HTTP, no files.
        .target(
            name: "OfferRetentionEndpoint",
            dependencies: [
                "OfferJSON", "OfferSigning", "OfferAppleVerification",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // A test chain shaped like the App Store's and real-time requests signed on it, and the endpoint's
        // answers read strictly: to try a Get Retention Message endpoint (`offerkit retention try-endpoint`)
        // and to test a decider, without Apple.
        .target(
            name: "OfferRetentionEndpointTesting",
            dependencies: [
                "OfferJSON", "OfferSigning", "OfferAppleVerification", "OfferRetentionEndpoint",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // The PostgreSQL store of the code ledger: its own target, so that only what opens a shared
        // ledger (the CLI) links postgres-nio; OfferLedger stays free of it.
        .target(
            name: "OfferLedgerPostgres",
            dependencies: [
                "OfferCodes", "OfferLedger",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // What App Store Connect's API says and how OfferKit reads it (addresses, rate-limit headers,
        // error bodies, list pages, campaign paths): no networking, so the fuzz targets reach it.
        .target(name: "OfferConnectAPI", dependencies: ["OfferJSON", "OfferCodes"]),
        // The App Store Connect client of `codes apply`: tokens, pacing, retries, lookups, the run.
        // Its own target, so that only the CLI links AsyncHTTPClient.
        .target(
            name: "OfferConnect",
            dependencies: [
                "OfferJSON", "OfferSigning", "OfferCodes", "OfferLedger", "OfferConnectAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The Retention Messaging API's wire rules as OfferKit writes and reads them (request bodies and
        // Apple's limits, PNG checks, answers, error codes, Retry-After): no networking, so the fuzz
        // targets reach it.
        .target(name: "OfferRetentionAPI", dependencies: ["OfferJSON", "OfferSigning"]),
        // The client of Apple's Retention Messaging API (`offerkit retention`): App Store Server API
        // tokens, retries, the transport of `codes apply` (OfferConnect). Only the CLI links it.
        .target(
            name: "OfferRetentionClient",
            dependencies: ["OfferJSON", "OfferSigning", "OfferConnect", "OfferConnectAPI", "OfferRetentionAPI"]
        ),
        // What the service's clients see: its operations (routes, schemas, examples), its problem types
        // and the OpenAPI document written from them. No server: the code snippets and the
        // generated clients' checks need only this.
        .target(
            name: "OfferServiceContract",
            dependencies: [
                "OfferJSON", "OfferSigning", "OfferCodes",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The HTTP service (`offerkit serve`, Hummingbird): each operation of the contract with its
        // handler, authentication, limits, the ledger, TLS, metrics and logs.
        .target(
            name: "OfferService",
            dependencies: [
                "OfferJSON", "OfferSigning", "OfferCodes", "OfferLedger", "OfferAppleVerification",
                "OfferRetentionEndpoint",
                "OfferServiceContract",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The code snippets that call the service (`offerkit snippet`): templates, rendering, literals.
        .target(
            name: "OfferSnippets",
            dependencies: [
                "OfferJSON", "OfferServiceContract", "OfferSigning", "OfferCodes",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // The `sign` commands of `offerkit` and what they need (credentials, the config file, output, exit
        // codes), with a command tree of their own: all that `offerkit` built without its trait AllCommands has.
        .target(
            name: "OfferKitSigningCLI",
            dependencies: [
                "OfferJSON", "OfferSigning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The commands of `offerkit`, one file each: a library, so that the tests run them in-process.
        .target(
            name: "OfferKitCLI",
            dependencies: [
                "OfferKitSigningCLI", "OfferJSON", "OfferSigning", "OfferCodes", "OfferLedger", "OfferService",
                "OfferSnippets", "OfferLedgerPostgres",
                "OfferConnect", "OfferConnectAPI", "OfferAppleVerification", "OfferRetentionAPI",
                "OfferRetentionEndpoint", "OfferRetentionClient", "OfferRetentionEndpointTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // `offerkit`: main.swift only, calling OfferKitCLI (every command) or, without the trait AllCommands,
        // OfferKitSigningCLI (the `sign` commands).
        .executableTarget(
            name: "offerkit",
            dependencies: [
                "OfferKitSigningCLI", .target(name: "OfferKitCLI", condition: .when(traits: ["AllCommands"])),
            ]
        ),
        // The fuzz targets: the parsers of outside input, one entry point each (Fuzz/run, docs/testing.md "Fuzzing").
        .target(
            name: "FuzzTargets",
            dependencies: [
                "OfferJSON", "OfferSigning", "OfferCodes", "OfferLedger", "OfferConnectAPI", "OfferAppleVerification",
                "OfferRetentionAPI",
                "OfferRetentionEndpoint", "OfferRetentionEndpointTesting", "OfferService",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                // http-framing: NIO's HTTP/1.1 parser with and without the service's ConnectionGuard.
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            path: "Fuzz/Targets"
        ),
        // Built normally: replays inputs through a target. Built by Fuzz/run (-sanitize=fuzzer -DFUZZING): libFuzzer.
        .executableTarget(name: "offerkit-fuzz", dependencies: ["FuzzTargets"], path: "Fuzz/Driver"),
        // Runs the independent tools (Python, openssl) for the test targets; used by tests only.
        .target(name: "InteropSupport", path: "Tests/InteropSupport"),
        // `offerkit` for the end-to-end tests: the test binary itself, started through a link named
        // `offerkit`, runs OfferKitCLI's entry point (a C initializer, before the test runner's main).
        .target(name: "CLIUnderTestShim", path: "Tests/CLIUnderTest/Shim"),
        .target(
            name: "CLIUnderTest", dependencies: ["CLIUnderTestShim", "OfferKitCLI", "OfferKitSigningCLI"],
            path: "Tests/CLIUnderTest/Swift"),
        // How many test cases run at once: a C initializer sets Swift Testing's cap before the runner starts.
        .target(name: "SuiteWidth", path: "Tests/SuiteWidth"),
        // Makes every job of Swift's global executor run late (a busy machine), in a test's child process.
        .target(name: "LateGlobalExecutor", path: "Tests/LateGlobalExecutor"),
        // The test chain of OfferRetentionEndpointTesting with the broken variants a verifier must refuse, and the
        // example rules, for the tests of the Get Retention Message endpoint; used by tests only.
        .target(
            name: "AppleTestChain",
            dependencies: [
                "OfferJSON", "OfferAppleVerification", "OfferRetentionEndpointTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/AppleTestChain"
        ),
        // Throwaway TLS certificates made in Swift (a CA and a server certificate for 127.0.0.1 and localhost,
        // expired, not yet valid, on an RSA key) for the tests of `offerkit serve` over HTTPS; used by tests only.
        .target(
            name: "TLSTestSupport",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/TLSTestSupport"
        ),
        // What the ledger's tests share: ledgers on both backends, campaigns, the throwaway PostgreSQL
        // server; used by tests only.
        .target(
            name: "LedgerTestSupport",
            dependencies: [
                "OfferCodes", "OfferLedger", "OfferLedgerPostgres", "OfferJSON", "InteropSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/LedgerTestSupport"
        ),
        // What the CLI's tests share: the runner (in-process or a process), campaign folders, servers,
        // the stand-ins' fixtures, the apply proofs' checks; used by tests only.
        .target(
            name: "CLITestSupport",
            dependencies: [
                "CLIUnderTest", "OfferKitCLI", "OfferKitSigningCLI", "OfferSigning", "InteropSupport",
                "AppleTestChain",
            ],
            path: "Tests/CLITestSupport"
        ),
        .testTarget(name: "OfferJSONTests", dependencies: ["OfferJSON"]),
        .testTarget(
            name: "OfferAppleVerificationTests",
            dependencies: [
                "OfferAppleVerification", "InteropSupport", "AppleTestChain",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .testTarget(
            name: "OfferRetentionEndpointTests",
            dependencies: [
                "OfferRetentionEndpoint", "OfferAppleVerification", "OfferSigning", "OfferJSON", "InteropSupport",
                "AppleTestChain", "LateGlobalExecutor",
            ]
        ),
        .testTarget(
            name: "OfferRetentionAPITests",
            dependencies: ["OfferRetentionAPI", "OfferSigning", "InteropSupport"]),
        .testTarget(
            name: "OfferConnectTests",
            dependencies: ["OfferConnectAPI", "OfferConnect", "OfferCodes", "OfferJSON", "OfferSigning"]),
        .testTarget(
            name: "OfferSigningTests",
            dependencies: [
                "OfferJSON", "OfferSigning", "InteropSupport", .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "OfferCodesTests",
            dependencies: [
                "OfferCodes", "OfferLedger", "OfferJSON", "OfferSigning", "InteropSupport", "FuzzTargets",
                "OfferLedgerPostgres", "LedgerTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                // PostgresConnectionsTests asks the connections of a PostgreSQL ledger for their settings.
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "OfferServiceTests",
            dependencies: [
                // LedgerTestSupport: the claim and status operations are tested on both ledgers.
                "OfferService", "OfferJSON", "OfferSigning", "OfferCodes", "OfferLedger", "LedgerTestSupport",
                "InteropSupport",
                "OfferRetentionEndpoint", "OfferAppleVerification", "AppleTestChain", "TLSTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "OfferSnippetsTests",
            dependencies: ["OfferSnippets", "OfferServiceContract", "OfferSigning", "InteropSupport"]
        ),
        .testTarget(
            name: "OfferKitCLITests",
            dependencies: [
                "CLIUnderTest", "CLITestSupport", "OfferJSON", "OfferSigning", "InteropSupport", "AppleTestChain",
                "TLSTestSupport",
                "OfferRetentionEndpoint", "OfferRetentionEndpointTesting", "OfferAppleVerification", "SuiteWidth",
                // The command tree, read in-process by the test of every command's --help.
                "OfferKitCLI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The `sign` commands' own tree; the service's configuration members, which theirs must equal.
                "OfferKitSigningCLI", "OfferService",
            ]
        ),
        // The heavy proofs: claims from many processes, kill -9, `codes apply` under App Store Connect's
        // faults, two `offerkit serve` instances on one ledger, a PostgreSQL server that goes away.
        .testTarget(
            name: "OfferKitProofTests",
            dependencies: [
                "CLITestSupport", "LedgerTestSupport", "InteropSupport", "OfferCodes", "OfferLedger",
                "OfferLedgerPostgres", "OfferSigning",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer build of offerkit-fuzz with only OfferKit's targets instrumented: Fuzz/run with
// OFFERKIT_FUZZ_INSTRUMENT=ours builds it with OFFERKIT_FUZZ=1 in its environment. Only the targets written
// here, the ones the fuzz targets reach, get libFuzzer's coverage and AddressSanitizer
// (-sanitize=fuzzer,address); the dependencies, built as usual, compile once for this build and the plain
// one. CI builds its short-run fuzzer this way in the main scratch folder, so only these targets compile
// again; long runs instrument every module (see Fuzz/run and docs/testing.md, "Fuzzing").
if Context.environment["OFFERKIT_FUZZ"] == "1" {
    let sanitizers: [String] = ["-sanitize=fuzzer,address"]
    let instrumented: Set<String> = [
        "OfferJSON", "OfferSigning", "OfferCodes", "OfferLedger", "OfferConnectAPI", "OfferAppleVerification",
        "OfferRetentionAPI", "OfferRetentionEndpoint", "OfferRetentionEndpointTesting", "OfferServiceContract",
        "OfferService",
        "FuzzTargets", "offerkit-fuzz",
    ]
    for target in package.targets where instrumented.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(sanitizers)]
        if target.name == "offerkit-fuzz" {
            target.swiftSettings = (target.swiftSettings ?? []) + [.define("FUZZING")]
            target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(sanitizers)]
        }
    }
}
