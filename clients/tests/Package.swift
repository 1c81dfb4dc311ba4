// swift-tools-version:6.1
// The tests of both clients against a live `offerkit serve`, and the pinned swift-openapi-generator that
// `clients/generate` runs. A package of its own that holds the main package and the Swift client (as
// Benchmarks/ holds the main package), so that it builds in the main scratch folder and reuses what that
// folder holds (SwiftNIO, AsyncHTTPClient, the `offerkit` binary): SwiftPM removes the checkouts of
// packages a build does not need, so a package without the main one would make the next main build start
// over. From the repository root:
//   swift build --package-path clients/tests --scratch-path .build --build-tests
//   swift test --package-path clients/tests --scratch-path .build --skip-build
import PackageDescription

let package = Package(
    name: "OfferKitClientTests",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OfferKit", path: "../.."),
        .package(name: "OfferKitClient", path: "../swift"),
        // clients/generate builds its command-line tool from here: one version, so the same sources.
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .testTarget(
            name: "OfferKitClientTests",
            dependencies: [
                .product(name: "OfferKitClient", package: "OfferKitClient"),
                // Not used by the tests: it keeps the main package in the graph (see above), with its
                // smallest library.
                .product(name: "OfferSigning", package: "OfferKit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
