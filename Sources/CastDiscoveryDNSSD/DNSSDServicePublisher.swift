import CastDiscovery
import Dispatch
import Synchronization

/// Publishes services through Apple's dns_sd API (`DNSServiceRegister`; on Linux Avahi's
/// compatibility library over avahi-daemon): one registration per service and interface, the
/// subtypes in its type (`_googlecast._tcp,_CC1AD845`), TXT changes with
/// `DNSServiceUpdateRecord`.
///
/// The daemon renames a registration whose name is taken (`Name #2` with Avahi,
/// `Name (2)` with mDNSResponder), said as `PublishingEvent.renamed(id:from:to:)`. When the
/// daemon goes, every registration is made again, once a second, until it is back.
///
/// One thread owns the refs: the poll loop's. Calls from other threads are handed to it.
public final class DNSSDServicePublisher: ServicePublisher, PollLoopOwner, @unchecked Sendable {
    private enum Request {
        case register(Int, ServiceRegistration)
        case update(Int, [TXTEntry])
        case withdraw(Int)
    }

    /// A registration and its refs (one per interface).
    private final class Entry {
        var registration: ServiceRegistration
        var name: String
        var refs: [DNSSDServiceRef] = []
        /// The interfaces whose registration the daemon confirmed.
        var registeredInterfaces: Set<UInt32> = []
        var established = false
        init(_ registration: ServiceRegistration) {
            self.registration = registration
            name = registration.instanceName
        }
    }

    /// The most requests waiting for the loop; more is an error (the caller is far ahead).
    static let maximumPendingRequests = 65_536
    /// How often registration is tried again while the daemon is away.
    static let retryInterval: Duration = .seconds(1)

    public let events: AsyncStream<PublishingEvent>
    private let continuation: AsyncStream<PublishingEvent>.Continuation
    private let dropped = Atomic(0)
    private let requests = LockedValue<[Request]>([])
    private let closed = LockedValue(false)
    private let loop: PollLoop
    private let ended = DispatchSemaphore(value: 0)
    // The loop's:
    private var entries: [Int: Entry] = [:]
    private var tokens: [ObjectIdentifier: PollLoop.Token] = [:]
    private var retired: [DNSSDServiceRef] = []
    private var retryAt: ContinuousClock.Instant?
    private var daemonAway = false

    /// Checks that the daemon answers (a browse is opened and closed), then starts the loop's
    /// thread, which holds the publisher until ``close()`` ends it: call `close()` when done.
    /// Throws when the daemon does not answer, with the fix.
    public init() throws(DiscoveryError) {
        if var error = DNSSDBackend().unavailability() {
            // Browsing can do without a daemon (the querier); publishing cannot.
            if error.kind == .discoveryServiceMissing { error.fix = SystemServices.current.fix(.avahi) }
            throw error
        }
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(4096))
        loop = try PollLoop()
        do throws(LoopThread.Failure) {
            try LoopThread.start { [self] in run() }
        } catch {
            throw DiscoveryError(kind: .other, message: "\(error)")
        }
    }

    public var droppedEvents: Int { dropped.load(ordering: .relaxed) }

    public func register(_ registration: ServiceRegistration, id: Int) throws(DiscoveryError) {
        try registration.validate()
        try hand(.register(id, registration))
    }

    public func updateTXT(_ txt: [TXTEntry], id: Int) throws(DiscoveryError) {
        var probe = ServiceRegistration(instanceName: "txt", serviceType: "_googlecast._tcp", port: 1, txt: txt)
        probe.interfaceIndexes = []
        try probe.validate()
        try hand(.update(id, txt))
    }

    public func withdraw(id: Int) {
        try? hand(.withdraw(id))
    }

    /// Ends the loop, which deallocates every ref (the daemon withdraws them with goodbyes),
    /// and waits for it (at most 5 s).
    public func close() {
        let already = closed.withLock { done in
            defer { done = true }
            return done
        }
        guard !already else { return }
        loop.stop()
        _ = ended.wait(timeout: .now() + .seconds(5))
        continuation.finish()
    }

    deinit { close() }

    private func hand(_ request: Request) throws(DiscoveryError) {
        guard !closed.withLock({ $0 }) else { throw DiscoveryError(kind: .other, message: "the publisher is closed") }
        let accepted = requests.withLock { queue in
            guard queue.count < Self.maximumPendingRequests else { return false }
            queue.append(request)
            return true
        }
        guard accepted else {
            throw DiscoveryError(
                kind: .other, message: "\(Self.maximumPendingRequests) requests wait for the dns_sd thread")
        }
        loop.wake()
    }

    // MARK: - The loop's thread

    private func run() {
        loop.assertOnLoop()
        let failure = loop.run(self)
        for id in entries.keys.sorted() { if let entry = entries[id] { closeRefs(of: entry) } }
        entries = [:]
        closeRetired()
        if let failure {
            closed.withLock { $0 = true }
            emit(.stopped(error: DiscoveryError(kind: .other, message: "the dns_sd publisher stopped: \(failure)")))
            continuation.finish()
        }
        ended.signal()
    }

    public func nextDeadline() -> ContinuousClock.Instant? { retryAt }

    public func tick(at now: ContinuousClock.Instant) {
        loop.assertOnLoop()
        closeRetired()
        let pending = requests.withLock { queue in
            defer { queue = [] }
            return queue
        }
        for request in pending { handle(request) }
        if let retryAt, now >= retryAt {
            self.retryAt = nil
            for (id, entry) in entries.sorted(by: { $0.key < $1.key }) where entry.refs.isEmpty { open(entry, id: id) }
        }
    }

    private func handle(_ request: Request) {
        switch request {
        case .register(let id, let registration):
            if let old = entries.removeValue(forKey: id) { closeRefs(of: old) }
            let entry = Entry(registration)
            entries[id] = entry
            if daemonAway {
                retryAt = retryAt ?? .now  // tried with the others, or now when none waits
            } else {
                open(entry, id: id)
            }
        case .update(let id, let txt):
            guard let entry = entries[id] else { return }
            entry.registration.txt = txt
            let wire = Self.wireFormat(txt)
            for ref in entry.refs {
                let status = ref.updateTXT(wire)
                if status != 0 { failed(id, DNSSDError(code: status)) }
            }
        case .withdraw(let id):
            if let entry = entries.removeValue(forKey: id) { closeRefs(of: entry) }
        }
    }

    /// Registers the entry on each of its interfaces.
    private func open(_ entry: Entry, id: Int) {
        let registration = entry.registration
        let type = ([registration.serviceType] + registration.subtypes).joined(separator: ",")
        let wire = Self.wireFormat(registration.txt)
        entry.registeredInterfaces = []
        entry.established = false
        for interface in registration.interfaceIndexes.isEmpty ? [0] : registration.interfaceIndexes {
            do throws(DNSSDError) {
                let ref = try DNSSDServiceRef.register(
                    name: entry.name, registrationType: type, interface: interface, port: registration.port, txt: wire
                ) { [unowned self] reply in self.reply(reply, id: id, interface: interface) }
                entry.refs.append(ref)
                tokens[ObjectIdentifier(ref)] = loop.register(ref.descriptor, name: "a dns_sd registration") {
                    [unowned self] _ in
                    let status = ref.process()
                    if status != 0 { self.failed(id, DNSSDError(code: status)) }
                }
                if daemonAway {
                    daemonAway = false
                    emit(.daemonRunning)
                }
            } catch {
                closeRefs(of: entry)
                failed(id, error)
                return
            }
        }
    }

    private func reply(_ reply: DNSSDServiceRef.Reply, id: Int, interface: UInt32) {
        guard let entry = entries[id] else { return }
        switch reply {
        case .registered(let name):
            if name != entry.name {
                emit(.renamed(id: id, from: entry.name, to: name))
                entry.name = name
            }
            entry.registeredInterfaces.insert(interface)
            if !entry.established, entry.registeredInterfaces.count >= entry.refs.count {
                entry.established = true
                emit(.established(id: id, name: entry.name))
            }
        case .failure(let code):
            failed(id, DNSSDError(code: code))
        default:
            break
        }
    }

    /// A ref failed: a daemon that went takes every registration with it (made again when it
    /// returns); any other error ends this one.
    private func failed(_ id: Int, _ error: DNSSDError) {
        if error.meansDaemonUnavailable {
            if !daemonAway {
                daemonAway = true
                emit(.daemonLost(reason: "\(error)"))
            }
            for entry in entries.values { closeRefs(of: entry) }
            retryAt = .now + Self.retryInterval
            return
        }
        if let entry = entries[id] { closeRefs(of: entry) }
        var reported = error.discoveryError
        if error == .nameConflict {
            reported = DiscoveryError(kind: .daemonError, message: "the name is taken (\(error))")
        }
        emit(.failed(id: id, error: reported))
    }

    private func closeRefs(of entry: Entry) {
        for ref in entry.refs {
            if let token = tokens.removeValue(forKey: ObjectIdentifier(ref)) { loop.deregister(token) }
            retired.append(ref)
        }
        entry.refs = []
        entry.registeredInterfaces = []
        entry.established = false
    }

    /// Deallocates refs after the round that retired them (never inside their own callback).
    private func closeRetired() {
        let refs = retired
        retired = []
        for ref in refs { ref.close() }
    }

    private func emit(_ event: PublishingEvent) {
        if case .dropped = continuation.yield(event) { dropped.add(1, ordering: .relaxed) }
    }

    /// A TXT record's wire format: each string after its length byte; an empty record is one
    /// empty string (RFC 6763 section 6.1).
    static func wireFormat(_ txt: [TXTEntry]) -> [UInt8] {
        guard !txt.isEmpty else { return [0] }
        var bytes: [UInt8] = []
        for entry in txt {
            bytes.append(UInt8(clamping: entry.count))
            bytes.append(contentsOf: entry.bytes.prefix(255))
        }
        return bytes
    }
}
