// swift-tools-version:6.0
// An example of the library used from another package: lists Cast devices with the async API.
// Depends on the package by path; from elsewhere, use
//   .package(url: "https://.../cast-discovery.git", from: "0.5.0")
import PackageDescription

let package = Package(
    name: "list-devices",
    dependencies: [
        .package(name: "cast-discovery", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "list-devices",
            dependencies: [
                // The core: devices, criteria, the discovery manager, the replay backend. Add
                // "CastDiscoveryBackends" (avahi-daemon, dns_sd, the mDNS querier, known hosts)
                // to ask the network, and "CastSender" for the iOS sender model.
                .product(name: "CastDiscovery", package: "cast-discovery")
            ])
    ],
    swiftLanguageModes: [.v6]
)
