// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "OfferKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "OfferSigning", targets: ["OfferSigning"]),
        .library(name: "OfferCodes", targets: ["OfferCodes"]),
        .executable(name: "offerkit", targets: ["offerkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        .target(
            name: "OfferSigning",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "OfferCodes",
            dependencies: [
                "OfferSigning",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .executableTarget(
            name: "offerkit",
            dependencies: [
                "OfferSigning", "OfferCodes", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "offerkit-demo",
            dependencies: ["OfferSigning", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "OfferSigningTests",
            dependencies: ["OfferSigning"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "OfferCodesTests",
            dependencies: ["OfferCodes", "OfferSigning", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "OfferKitCLITests",
            dependencies: ["OfferSigning"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
