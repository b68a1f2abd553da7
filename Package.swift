// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "cast-discovery",
    products: [
        .library(name: "CastDiscovery", targets: ["CastDiscovery"]),
        .library(name: "CastDiscoveryAvahi", targets: ["CastDiscoveryAvahi"]),
        .library(name: "CastSender", targets: ["CastSender"]),
    ],
    targets: [
        // Layer 1: the pure-Swift core. Foundation only, no C.
        .target(name: "CastDiscovery"),
        .testTarget(
            name: "CastDiscoveryTests",
            dependencies: ["CastDiscovery"]
        ),

        // Layer 2: the native Avahi backend. The only module that sees C.
        .systemLibrary(
            name: "CAvahi",
            path: "Sources/CAvahi",
            providers: [.apt(["libavahi-client-dev"])]
        ),
        .target(name: "CastDiscoveryAvahi", dependencies: ["CastDiscovery", "CAvahi"]),
        .testTarget(
            name: "CastDiscoveryAvahiTests",
            dependencies: ["CastDiscoveryAvahi", "CastDiscovery"]
        ),
        .target(name: "CastSender", dependencies: ["CastDiscovery"]),
        .testTarget(name: "CastSenderTests", dependencies: ["CastSender", "CastDiscovery"]),
    ],
    swiftLanguageModes: [.v6]
)
