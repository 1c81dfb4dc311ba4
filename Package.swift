// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "OfferKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "OfferSigning", targets: ["OfferSigning"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0")
    ],
    targets: [
        .target(
            name: "OfferSigning",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
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
    ],
    swiftLanguageModes: [.v6]
)
