import CastDiscovery
import CastDiscoveryBackends
import CastDiscoveryMDNS
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What to scan for and how, from the command line.
struct ScanOptions: Sendable {
    var criteria: DiscoveryCriteria
    var interface: String?
    var family: ServiceAddress.Family?
    var timeout: Duration
    var replayFile: String?
    var backendChoice: BackendChoice
    /// `--host` (and `--host-interval`): devices asked directly, their names looked up once.
    var knownHosts: KnownHostsBackend?

    static let defaultTimeout = 5.0

    init(_ arguments: ParsedArguments) throws(UsageError) {
        criteria = try Self.criteria(arguments, whenEmpty: .all)
        interface = arguments.value(of: Self.interface)
        switch (arguments.isSet(Self.ipv4), arguments.isSet(Self.ipv6)) {
        case (true, true): throw UsageError.conflictingOptions("-4", "-6")
        case (true, false): family = .ipv4
        case (false, true): family = .ipv6
        case (false, false): family = nil
        }
        let seconds = try arguments.seconds(of: Self.timeout, in: 0.1...3600) ?? Self.defaultTimeout
        timeout = .milliseconds(Int64(seconds * 1000))
        replayFile = arguments.value(of: Self.replay)
        backendChoice = arguments.value(of: Self.backend).flatMap(BackendChoice.init(rawValue:)) ?? .auto
        if replayFile != nil, arguments.value(of: Self.backend) != nil {
            throw UsageError.conflictingOptions("--replay", "--backend")
        }
        let hosts = arguments.values(of: Self.host)
        if replayFile != nil, !hosts.isEmpty { throw UsageError.conflictingOptions("--replay", "--host") }
        if backendChoice == .hosts, hosts.isEmpty {
            throw UsageError.invalidValue(
                option: Self.backend.displayName, value: "hosts", expected: "given with --host ADDRESS")
        }
        if hosts.count > KnownHostsBackend.maximumHosts {
            throw UsageError.invalidValue(
                option: Self.host.displayName, value: hosts[KnownHostsBackend.maximumHosts],
                expected: "given at most \(KnownHostsBackend.maximumHosts) times")
        }
        let interval = try arguments.seconds(of: Self.hostInterval, in: 1...86400) ?? 30
        knownHosts = nil
        if !hosts.isEmpty {
            do throws(KnownHostError) {
                knownHosts = try KnownHostsBackend(
                    hosts: hosts, interval: .milliseconds(Int64(interval * 1000)), families: families)
            } catch {
                throw UsageError.invalidValue(
                    option: Self.host.displayName, value: error.host ?? hosts[0],
                    expected: "an IPv4 or IPv6 address or a host name that resolves (\(error.error.message))")
            }
        }
    }

    /// The criteria of `--app-id` and `--namespace` (any given), else `whenEmpty`.
    static func criteria(_ arguments: ParsedArguments, whenEmpty: DiscoveryCriteria) throws(UsageError)
        -> DiscoveryCriteria
    {
        let ids = arguments.values(of: Self.appID), namespaces = arguments.values(of: Self.namespace)
        guard !ids.isEmpty || !namespaces.isEmpty else { return whenEmpty }
        do {
            return try DiscoveryCriteria(applicationIDs: ids, namespaces: namespaces)
        } catch {
            switch error {
            case .emptyNamespace, .namespaceMissingCastPrefix, .namespaceMissingSuffix, .namespaceTooLong:
                throw UsageError.invalidValue(
                    option: Self.namespace.displayName, value: error.input,
                    expected: "a Cast namespace such as urn:x-cast:com.example.app")
            default:
                throw UsageError.invalidValue(
                    option: Self.appID.displayName, value: error.input,
                    expected: "a hexadecimal receiver app ID such as CC1AD845")
            }
        }
    }

    /// The backend: a replay of `--replay FILE` (played as fast as possible, or at recorded
    /// speed for a live watch), else the one `--backend` chooses (the mDNS querier uses the
    /// interface and families of `--interface`, `-4` and `-6`).
    func backend(live: Bool) throws(DiscoveryError) -> BackendSelection {
        if let replayFile {
            let replay = try ReplayBackend(
                contentsOf: URL(fileURLWithPath: RawPath.absolute(replayFile)), speed: live ? 1 : 0,
                ending: live ? .finish : .holdOpen)
            return BackendSelection(backend: replay, name: "replay", reason: "--replay \(RawPath.display(replayFile))")
        }
        return try backendChoice.select(
            interfaceName: interface, families: families, knownHosts: knownHosts)
    }

    /// The addresses `--interface`, `-4` and `-6` let the manager show.
    var filter: DeviceFilter {
        DeviceFilter(interfaceName: interface, families: families)
    }

    /// The families `-4` or `-6` allow: both without either.
    var families: Set<ServiceAddress.Family> {
        family.map { [$0] } ?? [.ipv4, .ipv6]
    }
}
