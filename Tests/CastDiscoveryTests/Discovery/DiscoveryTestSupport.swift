import CastDiscovery
import Foundation

/// Services and browse types for discovery tests.
enum TestService {
    static let base = "_googlecast._tcp"
    static let dmr = "_CC1AD845._sub._googlecast._tcp"
    static let youTube = "_233637DE._sub._googlecast._tcp"

    /// A service whose TXT has `id` and `fn`, reported through `browse`.
    static func make(
        _ instance: String, id: String, name: String, host: String = "cc.local", port: UInt16 = 8009,
        address: String = "10.0.0.1", browse: Set<String> = [base], status: String = "0"
    ) -> DiscoveredService {
        let txt = TXTRecord(
            strings: ["id=\(id)", "fn=\(name)", "ve=05", "ca=4101", "st=\(status)"].map { Array($0.utf8) })
        let service = ResolvedService(
            instanceName: instance, hostName: host, port: port,
            addresses: [ServiceAddress(address, interfaceName: "eth0", interfaceIndex: 2)!], txt: txt)
        return DiscoveredService(service: service, browseTypes: browse)
    }

    static func uuid(_ n: Int) -> String { String(format: "%032x", n) }
}

/// A backend whose events the test sends one by one.
final class ScriptedBackend: DiscoveryBackend {
    private struct State {
        var continuation: AsyncStream<BackendEvent>.Continuation?
        var browses: [[String]] = []
        var startError: DiscoveryError?
        var terminations = 0
    }

    private let state = LockedValue(State())

    /// The browse types of every start, in order.
    var browses: [[String]] { state.withLock { $0.browses } }
    /// How many event streams ended (the manager cancelled them).
    var terminations: Int { state.withLock { $0.terminations } }

    /// Makes the next start fail with `error`.
    func failNextStart(_ error: DiscoveryError) { state.withLock { $0.startError = error } }

    func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        let browseTypes = request.browseTypes
        let (stream, continuation) = AsyncStream.makeStream(of: BackendEvent.self)
        let error = state.withLock { s -> DiscoveryError? in
            if let error = s.startError {
                s.startError = nil
                return error
            }
            s.browses.append(browseTypes)
            s.continuation = continuation
            return nil
        }
        if let error { throw error }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { $0.terminations += 1 } }
        return stream
    }

    /// Sends events to the current stream.
    func send(_ events: BackendEvent...) {
        let continuation = state.withLock { $0.continuation }
        events.forEach { continuation?.yield($0) }
    }

    /// Ends the current stream.
    func finish() { state.withLock { $0.continuation }?.finish() }
}

/// Reads a manager's events up to a marker, so tests wait for exactly what they sent.
struct EventReader {
    private var iterator: AsyncStream<DiscoveryEvent>.Iterator
    private var markers = 0

    init(_ stream: AsyncStream<DiscoveryEvent>) {
        iterator = stream.makeAsyncIterator()
    }

    /// The next event.
    mutating func next() async -> DiscoveryEvent? { await iterator.next() }

    /// Every event up to and including the first that `stop` accepts.
    mutating func read(until stop: (DiscoveryEvent) -> Bool) async -> [DiscoveryEvent] {
        var events: [DiscoveryEvent] = []
        while let event = await iterator.next() {
            events.append(event)
            if stop(event) { break }
        }
        return events
    }

    /// Every event up to and including the next discoveryStarted: after it the backend's stream
    /// is the new run's, so what the test sends reaches it.
    @discardableResult
    mutating func started() async -> [DiscoveryEvent] {
        await read { if case .discoveryStarted = $0 { true } else { false } }
    }

    /// Sends `events` then a marker through `backend`, and returns what the manager said before
    /// the marker.
    mutating func exchange(_ backend: ScriptedBackend, _ events: BackendEvent...) async -> [DiscoveryEvent] {
        markers += 1
        let marker = "marker-\(markers)"
        for event in events { backend.send(event) }
        backend.send(.cacheExhausted(browseType: marker))
        let read = await read { $0 == .cacheExhausted(browseType: marker) }
        return Array(read.dropLast())
    }
}

extension DiscoveryEvent {
    /// Friendly names, for short assertions.
    var summary: String {
        switch self {
        case .inserted(let device, let index): "insert \(device.friendlyName)@\(index)"
        case .updated(let device, let index): "update \(device.friendlyName)@\(index)"
        case .updatedAndMoved(let device, let from, let to): "move \(device.friendlyName)@\(from)->\(to)"
        case .removed(let device, let index): "remove \(device.friendlyName)@\(index)"
        case .willUpdateDeviceList: "will"
        case .didUpdateDeviceList: "did"
        case .discoveryStarted: "started"
        case .hadDiscoveredDevicesWhenStarting(let count): "had \(count)"
        case .discoveryStopped(let reason): "stopped \(reason)"
        case .discoveryFailedToStart: "failed to start"
        case .backendStateChanged(let state): "backend \(state)"
        case .cacheExhausted(let browseType): "cache \(browseType)"
        case .allForNow(let browseType): "all for now \(browseType)"
        case .resolveFailed(let key, _): "resolve failed \(key.name)"
        case .browseSettled(let settlement):
            "settled \(settlement.browseType) by \(settlement.reason.map(\.rawValue) ?? "-")"
        case .scanCompleted: "complete"
        case .backendStatistics(let statistics): "statistics \(statistics.packetsReceived)"
        case .eventsDropped(let missed): "dropped \(missed.count)"
        }
    }
}
