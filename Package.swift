// swift-tools-version:6.0
import PackageDescription

/// Linux only: Avahi (its client library and daemon) and the lab exist only there.
let linux: [Platform] = [.linux]

var products: [Product] = [
    .library(name: "CastDiscovery", targets: ["CastDiscovery"]),
    .library(name: "CastDiscoveryDNSSD", targets: ["CastDiscoveryDNSSD"]),
    .library(name: "CastDiscoveryMDNS", targets: ["CastDiscoveryMDNS"]),
    .library(name: "CastDiscoveryBackends", targets: ["CastDiscoveryBackends"]),
    .library(name: "CastSender", targets: ["CastSender"]),
    .library(name: "CastReceiverPublisher", targets: ["CastReceiverPublisher"]),
    .library(name: "CastDiscoveryReporting", targets: ["CastDiscoveryReporting"]),
    .library(name: "CastChannel", targets: ["CastChannel"]),
    .library(name: "CastScanCLI", targets: ["CastScanCLI"]),
    .executable(name: "cast-scan", targets: ["cast-scan"]),
]

var targets: [Target] = [
    // Layer 1: the pure-Swift core. FoundationEssentials and the C library (Glibc: sockets, poll,
    // files, interfaces), no other C library.
    .target(name: "CastDiscovery"),
    .testTarget(name: "CastDiscoveryTests", dependencies: ["CastDiscovery", "CastTestSupport"]),
    // What the tests share: waiting for a condition from a thread of its own.
    .target(name: "CastTestSupport", path: "Tests/CastTestSupport"),

    // Layer 2: the dns_sd backend: Apple's DNS Service Discovery API; on Linux Avahi's
    // compatibility library (libdns_sd), on Apple platforms the system's. C stays inside it.
    .systemLibrary(
        name: "CDNSSD",
        path: "Sources/CDNSSD",
        providers: [.apt(["libavahi-compat-libdnssd-dev"])]
    ),
    .target(
        name: "CastDiscoveryDNSSD", dependencies: ["CastDiscovery", "CDNSSD"],
        linkerSettings: [
            .linkedLibrary("dns_sd", .when(platforms: linux)),
            .linkedLibrary("avahi-common", .when(platforms: linux)),
        ]),

    // Layer 2: the mDNS querier backend: no daemon, Glibc sockets, the core's DNS codec.
    .target(name: "CastDiscoveryMDNS", dependencies: ["CastDiscovery"]),
    .testTarget(name: "CastDiscoveryMDNSTests", dependencies: ["CastDiscoveryMDNS", "CastDiscovery"]),

    // Layer 2: choosing a backend (the first that works), over the backends. A module of its own
    // because it is the one place that depends on every backend: a library user gets `auto`
    // (the querier beside avahi-daemon) without the CLI, and the core stays free of backends.
    .target(
        name: "CastDiscoveryBackends",
        dependencies: [
            "CastDiscovery", "CastDiscoveryDNSSD", "CastDiscoveryMDNS",
            .target(name: "CastDiscoveryAvahi", condition: .when(platforms: linux)),
        ]),

    // Layer 2: the Cast channel (TLS on port 8009): asks a receiver what it plays. Beside the
    // backends; TLS is Debian's OpenSSL (libssl3), over memory buffers; C stays inside it.
    // COpenSSL builds against OpenSSL's headers (libssl-dev) and loads libssl3 when first used,
    // so that a command without the channel never maps it.
    .target(name: "COpenSSL", path: "Sources/COpenSSL"),
    .target(name: "CastChannel", dependencies: ["CastDiscovery", "COpenSSL"]),
    .testTarget(name: "CastChannelTests", dependencies: ["CastChannel", "CastDiscovery", "CastChannelTestSupport", "CastTestSupport"]),
    // What the channel's tests and cast-scan's share: a TLS receiver on loopback.
    .target(name: "CastChannelTestSupport", dependencies: ["CastChannel", "CastDiscovery", "COpenSSL"], path: "Tests/CastChannelTestSupport"),

    // Layer 2: event reports, stored in SQLite and posted with libcurl (Debian's libraries,
    // installed by Scripts/setup). C stays inside it.
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .target(name: "CCurl", path: "Sources/CCurl"),  // headers: libcurl4-openssl-dev
    .target(name: "CastDiscoveryReporting", dependencies: ["CastDiscovery", "CSQLite", "CCurl"]),
    .testTarget(
        name: "CastDiscoveryReportingTests", dependencies: ["CastDiscoveryReporting", "CastDiscovery", "CastTestSupport"]
    ),

    // Layer 4 support: what `cast-scan serve` needs to be a service: HTTP (GNU libmicrohttpd)
    // and the service manager's notifications (libsystemd), both Debian's, loaded with dlopen
    // by the one command that uses them. C stays inside it.
    .target(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),  // headers: libmicrohttpd-dev
    .target(name: "CSystemd", path: "Sources/CSystemd"),  // headers: libsystemd-dev
    .target(name: "CZlib", path: "Sources/CZlib"),  // headers: zlib1g-dev
    .target(name: "CYAML", path: "Sources/CYAML"),  // headers: libyaml-dev
    .target(name: "CCrypt", path: "Sources/CCrypt"),  // headers: libcrypt-dev
    .target(
        name: "CastScanServing",
        dependencies: ["CastDiscovery", "CMicroHTTPD", "CSystemd", "CZlib", "CYAML", "CCrypt", "COpenSSL"]),
    .testTarget(name: "CastScanServingTests", dependencies: ["CastScanServing", "CastDiscovery", "CastTestSupport"]),

    // Layer 2: publishing simulated Cast receivers through a daemon's API (the Avahi and
    // dns_sd modules' publishers), with the status their Cast channel answers: what a test
    // suite or `cast-scan publish` uses.
    .target(
        name: "CastReceiverPublisher",
        dependencies: [
            "CastDiscovery", "CastDiscoveryDNSSD", "CastChannel",
            .target(name: "CastDiscoveryAvahi", condition: .when(platforms: linux)),
        ]),
    .testTarget(name: "CastReceiverPublisherTests", dependencies: ["CastReceiverPublisher", "CastDiscovery", "CastChannel"]),

    // Layer 3: the sender model, on the core.
    .target(name: "CastSender", dependencies: ["CastDiscovery"]),
    .testTarget(name: "CastSenderTests", dependencies: ["CastSender", "CastDiscovery"]),

    // Layer 4: the command-line tool: a library of commands and a thin executable.
    .target(
        name: "CastScanCLI",
        dependencies: [
            "CastDiscovery", "CastDiscoveryDNSSD", "CastDiscoveryMDNS", "CastDiscoveryBackends", "CastSender",
            "CastDiscoveryReporting", "CastScanServing", "CastReceiverPublisher", "CastChannel",
            .target(name: "CastDiscoveryAvahi", condition: .when(platforms: linux)),
        ]),
    .executableTarget(name: "cast-scan", dependencies: ["CastScanCLI"]),
    .testTarget(
        name: "CastScanCLITests", dependencies: ["CastScanCLI", "CastDiscovery", "CastSender", "CastTestSupport", "CastChannelTestSupport"]),

    // Layer 5: benchmarks. CMallocCounter counts the benchmark process's heap allocations (it
    // defines malloc and its kin over glibc's); only cast-bench links it.
    .target(name: "CMallocCounter", path: "Benchmarks/CMallocCounter"),
    .executableTarget(
        name: "cast-bench", dependencies: ["CastDiscovery", "CastChannel", "CMallocCounter"], path: "Benchmarks/cast-bench"),

    // Layer 5: fuzzing. The properties each parser of untrusted input must keep, one file per
    // parser; Scripts/fuzz links them into libFuzzer targets (Fuzz/Targets, built with
    // -sanitize=fuzzer,address outside SwiftPM, which has no fuzzer build), and the tests
    // check them over the fixtures and every finding kept in Fixtures/fuzz.
    .target(
        name: "FuzzProperties",
        dependencies: [
            "CastDiscovery", "CastChannel", "CastSender", "CastReceiverPublisher", "CastDiscoveryReporting",
            "CastScanServing", "CastScanCLI",
        ],
        path: "Fuzz/Properties"),
    .testTarget(name: "FuzzFindingsTests", dependencies: ["FuzzProperties"]),
]

#if os(Linux)
products.append(.library(name: "CastDiscoveryAvahi", targets: ["CastDiscoveryAvahi"]))
targets += [
    // Layer 2: the native Avahi backend. C stays inside it.
    .systemLibrary(
        name: "CAvahi",
        path: "Sources/CAvahi",
        providers: [.apt(["libavahi-client-dev"])]
    ),
    // libdbus-1 (a dependency of libavahi-client already): asks the bus whether avahi-daemon
    // is there without a round trip to a daemon that may be busy.
    .systemLibrary(name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
    .target(name: "CastDiscoveryAvahi", dependencies: ["CastDiscovery", "CAvahi", "CDBus"]),
    .testTarget(name: "CastDiscoveryAvahiTests", dependencies: ["CastDiscoveryAvahi", "CastDiscovery"]),

    // Every backend against the lab's real daemons and simulated devices (run inside the
    // lab by Tests/Scripts/backend-lab-test.sh; disabled elsewhere).
    .testTarget(
        name: "CastDiscoveryLabTests",
        dependencies: ["CastDiscovery", "CastDiscoveryAvahi", "CastDiscoveryDNSSD", "CastDiscoveryMDNS", "CastReceiverPublisher"]
    ),
]
#endif

let package = Package(
    name: "cast-discovery",
    products: products,
    targets: targets,
    swiftLanguageModes: [.v6]
)
