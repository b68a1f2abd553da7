// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "cast-discovery",
    products: [
        .library(name: "CastDiscovery", targets: ["CastDiscovery"]),
    ],
    targets: [
        // Layer 1: the pure-Swift core. Foundation only, no C.
        .target(name: "CastDiscovery"),
        .testTarget(
            name: "CastDiscoveryTests",
            dependencies: ["CastDiscovery"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
