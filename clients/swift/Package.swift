// swift-tools-version:6.1
// The Swift client of the OfferKit signing service. Its own package, so that the main build does not
// compile it: Sources/OfferKitClient/Generated is written by swift-openapi-generator from openapi.json
// (clients/generate; never edit it), the rest of the target is written by hand (the problem as a typed
// error, the API key, the transport). Its tests are in clients/tests, a package that also holds the main
// package, so that CI builds both in one scratch folder.
import PackageDescription

let package = Package(
    name: "OfferKitClient",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "OfferKitClient", targets: ["OfferKitClient"]),
        .executable(name: "offerkit-client-example", targets: ["offerkit-client-example"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "OfferKitClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The README's example ("Use it from any language"), as it is printed there; CI runs it.
        .executableTarget(name: "offerkit-client-example", dependencies: ["OfferKitClient"]),
    ],
    swiftLanguageModes: [.v6]
)
