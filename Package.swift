// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "cast-discovery",
    products: [
        .library(name: "CastDiscovery", targets: ["CastDiscovery"]),
        .library(name: "CastDiscoveryAvahi", targets: ["CastDiscoveryAvahi"]),
        .library(name: "CastDiscoveryMDNS", targets: ["CastDiscoveryMDNS"]),
        .library(name: "CastDiscoveryBackends", targets: ["CastDiscoveryBackends"]),
        .library(name: "CastSender", targets: ["CastSender"]),
        .library(name: "CastScanCLI", targets: ["CastScanCLI"]),
        .executable(name: "cast-scan", targets: ["cast-scan"]),
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

        // Layer 2: the mDNS querier backend: no daemon, Glibc sockets, the core's DNS codec.
        .target(name: "CastDiscoveryMDNS", dependencies: ["CastDiscovery"]),
        .testTarget(name: "CastDiscoveryMDNSTests", dependencies: ["CastDiscoveryMDNS", "CastDiscovery"]),

        // Layer 2: choosing a backend (the first that works), over the backends.
        .target(name: "CastDiscoveryBackends", dependencies: ["CastDiscovery", "CastDiscoveryAvahi", "CastDiscoveryMDNS"]),

        // Every backend against the lab's real daemons and simulated devices (run inside the
        // lab by Tests/Scripts/backend-lab-test.sh; disabled elsewhere).
        .testTarget(
            name: "CastDiscoveryLabTests",
            dependencies: ["CastDiscovery", "CastDiscoveryAvahi", "CastDiscoveryMDNS"]
        ),

        // Layer 3: the sender model, on the core.
        .target(name: "CastSender", dependencies: ["CastDiscovery"]),
        .testTarget(name: "CastSenderTests", dependencies: ["CastSender", "CastDiscovery"]),

        // Layer 4: the command-line tool: a library of commands and a thin executable.
        .target(
            name: "CastScanCLI",
            dependencies: ["CastDiscovery", "CastDiscoveryAvahi", "CastDiscoveryMDNS", "CastDiscoveryBackends", "CastSender"]),
        .executableTarget(name: "cast-scan", dependencies: ["CastScanCLI"]),
        .testTarget(name: "CastScanCLITests", dependencies: ["CastScanCLI", "CastDiscovery", "CastSender"]),

        // Layer 5: benchmarks
        .executableTarget(name: "cast-bench", dependencies: ["CastDiscovery"], path: "Benchmarks/cast-bench"),
    ],
    swiftLanguageModes: [.v6]
)
