import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One browse session of ``DNSSDBackend``: its refs, the instances they reported and the
/// ``PollLoop`` that polls them. Everything but ``stop()`` runs on the loop's thread.
///
/// - One browse ref per browse type, for the life of the session.
/// - Per instance copy (an instance on an interface): a resolve, then one address query per
///   family, each released as soon as it answered or timed out, at most
///   ``Configuration/maximumInFlight`` at a time; then a TXT query kept open while the copy
///   lives (at most ``Configuration/maximumMonitors``), through which TXT changes arrive.
/// - Each such copy is reported with no transport (dns_sd's browse does not say the IP
///   protocol), there from the browse's first add to its last remove, with its resolution
///   (assembled from the resolve, both families' address queries and the TXT query) and its
///   failure. The session keeps the dns_sd side: each browse's adds, the resolution as the refs
///   bring it, the refs and their queue.
/// - A copy whose resolve failed is resolved again while a browse reports it (``retryAfter``,
///   doubling up to ``maximumRetryInterval``): dns_sd's resolve ends at its time-out, and the
///   browse does not report the copy again when its records come later.
/// - dns_sd says neither cache-exhausted nor all-for-now: a browse says all-for-now once it has
///   run ``allForNowAfter`` (avahi-daemon's own all-for-now timer) and no new instance came in
///   the last ``quietPeriod``.
/// - A failure that means the daemon is gone (the compatibility library's client does not
///   survive a daemon restart: its refs fail with kDNSServiceErr_Unknown): daemon lost, every
///   service removed, every ref closed; new browse refs are tried with a doubling backoff, and
///   the services are found again.
final class DNSSDSession: PollLoopOwner, @unchecked Sendable {
    struct Configuration {
        /// The browse types as events name them.
        var browseTypes: [String]
        /// Each browse type's service type (with its subtype).
        var serviceTypes: [String: ServiceType]
        var interfaceName: String?
        var families: Set<ServiceAddress.Family>
        var maximumInFlight: Int
        var maximumMonitors: Int
    }

    /// A browse says all-for-now no sooner than this after it starts.
    static let allForNowAfter: Duration = .seconds(1)
    /// ... and only when no new instance came for this long.
    static let quietPeriod: Duration = .milliseconds(250)
    /// How long a resolve may take.
    static let resolveTimeout: Duration = .seconds(5)
    /// How long an address query may take.
    static let addressTimeout: Duration = .milliseconds(1500)
    /// How long after an address query of a resolved copy went unanswered (the other family's
    /// came) it is asked again; doubled after each, at most ``addressAttempts`` queries in all.
    /// A daemon that must ask the network may take longer than ``addressTimeout`` on a busy
    /// link or machine; without it a watch would keep such a device without that family.
    static let addressRetryAfter: Duration = .seconds(2)
    /// How many times in all one family's address of a copy is asked for.
    static let addressAttempts = 4
    /// How long after a failed resolve a copy is resolved again; doubled after each failure.
    static let retryAfter: Duration = .seconds(5)
    /// The longest wait between two resolves of a copy that keeps failing.
    static let maximumRetryInterval: Duration = .seconds(60)
    /// The longest wait between two attempts to reach a lost daemon.
    static let maximumBackoff: Duration = .seconds(8)

    /// What dns_sd needs of a copy (an instance on an interface), and what was reported of it.
    private struct Copy {
        /// How many adds each browse reported for it, less its removes (dns_sd may report an
        /// instance once per IP protocol); a browse reports it while its count is above 0.
        var adds: [String: Int] = [:]
        /// The resolve's answer (host, port, TXT) until the first address comes.
        var answer: ServiceResolution?
        /// The resolution reported once an address came (see ``resolution(of:)``).
        var resolution: ServiceResolution?
        /// Whether its resolve was reported failed since it last resolved.
        var hasFailed = false
    }

    private enum Purpose {
        case resolve(ServiceCopyKey)
        case address(ServiceCopyKey, ServiceAddress.Family)
        case monitor(ServiceCopyKey)
    }

    private struct Running {
        var ref: DNSSDServiceRef
        var purpose: Purpose
        var deadline: ContinuousClock.Instant?
    }

    private let configuration: Configuration
    private let buffer: BackendEventBuffer
    private let serviceTypes: [String: ServiceType]
    private let interfaceIndex: UInt32
    private var browses: [String: DNSSDServiceRef] = [:]
    private var running: [Int: Running] = [:]
    private var nextID = 0
    private var copies: [ServiceCopyKey: Copy] = [:]
    private var queue: [Purpose] = []
    /// The copies whose resolve failed: how many times in a row, and when the next resolve is
    /// queued (nil while it is queued or runs).
    private var retries: [ServiceCopyKey: (attempts: Int, due: ContinuousClock.Instant?)] = [:]
    /// A resolved copy's address queries of one family that went unanswered: how many, and
    /// when the next is queued (nil while it is queued or runs).
    private var addressRetries: [AddressQuery: (attempts: Int, due: ContinuousClock.Instant?)] = [:]

    private struct AddressQuery: Hashable {
        var copy: ServiceCopyKey
        var family: ServiceAddress.Family
    }
    private var browseStart: ContinuousClock.Instant = .now
    private var lastNews: [String: ContinuousClock.Instant] = [:]
    private var saidAllForNow: Set<String> = []
    private var retryAt: ContinuousClock.Instant?
    private var backoff: Duration = .milliseconds(500)
    /// Refs finished during a round of replies, closed after it (not inside their own callback).
    private var retired: [DNSSDServiceRef] = []
    /// A reply said the daemon is gone; handled after the round.
    private var lossDetected = false
    /// The loop that owns the session's state.
    private let loop: PollLoop
    /// The loop registration of each polled ref.
    private var tokens: [ObjectIdentifier: PollLoop.Token] = [:]

    /// Creates the session and its browse refs; throws when dns_sd refuses them (no daemon).
    init(configuration: Configuration, buffer: BackendEventBuffer) throws(DiscoveryError) {
        self.configuration = configuration
        self.buffer = buffer
        serviceTypes = configuration.serviceTypes
        if let name = configuration.interfaceName {
            guard let index = InterfaceName.index(of: name) else {
                throw DiscoveryError(kind: .badInput, message: "no network interface named \(SafeText.quoted(name))")
            }
            interfaceIndex = index
        } else {
            interfaceIndex = 0
        }
        loop = try PollLoop()
        do throws(DNSSDError) {
            try openBrowses()
        } catch {
            throw error.discoveryError
        }
    }

    /// Asks the loop to end; it closes every ref and finishes the stream. From any thread.
    func stop() {
        loop.stop()
    }

    // MARK: - The loop

    /// The loop: polls every ref and runs the timers until stopped, or until the loop fails,
    /// which is reported as the backend's failure.
    func run() {
        loop.assertOnLoop()
        emit([.stateChanged(.running)] + configuration.browseTypes.map { .browseStarted(browseType: $0) })
        let failure = loop.run(self)
        closeEverything()
        closeRetired()
        if let failure {
            emit([
                .stateChanged(.failed(DiscoveryError(kind: .other, message: "the dns_sd session stopped: \(failure)")))
            ])
        }
        buffer.finish()
    }

    /// Polls `ref` on the loop: its replies are processed when its socket is ready. `id` is the
    /// running ref's, `browse` the browse ref's type.
    private func watch(_ ref: DNSSDServiceRef, id: Int?, browse: String?) {
        tokens[ObjectIdentifier(ref)] = loop.register(ref.descriptor, name: "a dns_sd connection") { [unowned self] _ in
            let status = ref.process()
            if status != 0 { failed(id, browse: browse, DNSSDError(code: status)) }
        }
    }

    /// Stops polling `ref` and closes it after the current round of replies (not inside its own
    /// callback).
    private func retire(_ ref: DNSSDServiceRef) {
        if let token = tokens.removeValue(forKey: ObjectIdentifier(ref)) { loop.deregister(token) }
        retired.append(ref)
    }

    private func closeRetired() {
        let refs = retired
        retired = []
        for ref in refs { ref.close() }
    }

    func nextDeadline() -> ContinuousClock.Instant? {
        var next: ContinuousClock.Instant?
        func consider(_ instant: ContinuousClock.Instant?) {
            guard let instant else { return }
            next = min(next ?? instant, instant)
        }
        for run in running.values { consider(run.deadline) }
        consider(retryAt)
        for retry in retries.values { consider(retry.due) }
        for retry in addressRetries.values { consider(retry.due) }
        if !browses.isEmpty {
            for type in configuration.browseTypes where !saidAllForNow.contains(type) { consider(allForNowTime(type)) }
        }
        return next
    }

    func tick(at now: ContinuousClock.Instant) {
        closeRetired()
        if lossDetected { handleLoss() }
        if let retryAt, now >= retryAt { reconnect(at: now) }
        for (id, run) in running.sorted(by: { $0.key < $1.key }) {
            guard let deadline = run.deadline, deadline <= now else { continue }
            finish(id)
            timedOut(run.purpose)
        }
        for (key, retry) in retries.sorted(by: { ($0.value.due ?? now) < ($1.value.due ?? now) }) {
            guard let due = retry.due, due <= now else { continue }
            retries[key]?.due = nil
            queue.append(.resolve(key))
        }
        for (query, retry) in addressRetries.sorted(by: { ($0.value.due ?? now) < ($1.value.due ?? now) }) {
            guard let due = retry.due, due <= now else { continue }
            addressRetries[query]?.due = nil
            queue.append(.address(query.copy, query.family))
        }
        if !browses.isEmpty {
            for type in configuration.browseTypes where !saidAllForNow.contains(type) {
                if let time = allForNowTime(type), time <= now {
                    saidAllForNow.insert(type)
                    emit([.allForNow(browseType: type)])
                }
            }
        }
        startQueued()
        closeRetired()
    }

    private func allForNowTime(_ type: String) -> ContinuousClock.Instant? {
        max(browseStart + Self.allForNowAfter, (lastNews[type] ?? browseStart) + Self.quietPeriod)
    }

    // MARK: - Browses

    private func openBrowses() throws(DNSSDError) {
        var opened: [String: DNSSDServiceRef] = [:]
        for type in configuration.browseTypes {
            guard let serviceType = serviceTypes[type] else { continue }
            opened[type] = try DNSSDServiceRef.browse(serviceType.dnssdRegistrationType, interface: interfaceIndex) {
                [weak self] reply in
                self?.browseReply(type, reply)
            }
        }
        browses = opened
        for (type, ref) in opened.sorted(by: { $0.key < $1.key }) { watch(ref, id: nil, browse: type) }
        browseStart = .now
        lastNews = [:]
        saidAllForNow = []
    }

    private func browseReply(_ type: String, _ reply: DNSSDServiceRef.Reply) {
        switch reply {
        case .browse(let added, let interface, let name, let domain):
            guard let base = serviceTypes[type]?.base else { return }
            let key = ServiceCopyKey(
                service: ServiceKey(name: name, type: base, domain: Self.trimmed(domain)),
                interfaceIndex: Int32(bitPattern: interface), transport: nil)
            if added { add(key, browse: type) } else { remove(key, browse: type) }
        case .failure(let code):
            failed(nil, browse: type, DNSSDError(code: code))
        default:
            break
        }
    }

    /// A browse's add: the copy is reported for that browse at its first add (news for the
    /// browse), and a copy new to every browse is queued for a resolve.
    private func add(_ key: ServiceCopyKey, browse type: String) {
        let isNewCopy = copies[key] == nil
        let isNewToBrowse = (copies[key]?.adds[type] ?? 0) == 0
        copies[key, default: Copy()].adds[type, default: 0] += 1
        guard isNewToBrowse else { return }
        lastNews[type] = .now
        if isNewCopy { queue.append(.resolve(key)) }
        emit([.copyAdded(key, browseType: type)])
    }

    /// A browse's remove: the copy is reported gone from that browse when the browse's last add
    /// is taken back, and is forgotten once no browse reports it.
    private func remove(_ key: ServiceCopyKey, browse type: String) {
        guard let count = copies[key]?.adds[type], count > 0 else { return }
        copies[key]?.adds[type] = count > 1 ? count - 1 : nil
        guard count == 1 else { return }
        emit([.copyRemoved(key, browseType: type)])
        if copies[key]?.adds.isEmpty == true { forget(key) }
    }

    /// Drops a copy no browse reports any more: its queued and running work goes with it.
    private func forget(_ key: ServiceCopyKey) {
        copies[key] = nil
        retries[key] = nil
        for family in [ServiceAddress.Family.ipv4, .ipv6] {
            addressRetries[AddressQuery(copy: key, family: family)] = nil
        }
        queue.removeAll { purpose in
            switch purpose {
            case .resolve(let c), .address(let c, _), .monitor(let c): c == key
            }
        }
        for (id, run) in running {
            switch run.purpose {
            case .resolve(let c), .address(let c, _), .monitor(let c): if c == key { finish(id) }
            }
        }
    }

    // MARK: - Resolves, addresses and TXT

    private var inFlight: Int {
        running.values.filter { if case .monitor = $0.purpose { false } else { true } }.count
    }

    private var monitors: Int { running.count - inFlight }

    private func startQueued() {
        while !queue.isEmpty, inFlight < configuration.maximumInFlight {
            let purpose = queue.removeFirst()
            start(purpose)
        }
    }

    private func start(_ purpose: Purpose) {
        let id = nextID
        nextID += 1
        let ref: DNSSDServiceRef
        let deadline: ContinuousClock.Instant?
        do throws(DNSSDError) {
            switch purpose {
            case .resolve(let copy):
                guard copies[copy] != nil,
                    let base = serviceTypes.values.first(where: { $0.base == copy.service.type })?.base
                else { return }
                ref = try DNSSDServiceRef.resolve(
                    name: copy.service.name, registrationType: base.dnssdRegistrationType, domain: copy.service.domain,
                    interface: copy.dnssdInterface
                ) { [weak self] reply in self?.resolveReply(id, copy, reply) }
                deadline = .now + Self.resolveTimeout
            case .address(let copy, let family):
                guard let host = resolution(of: copy)?.hostName else { return }
                #if canImport(Darwin)
                ref = try DNSSDServiceRef.getAddrInfo(host: host, ipv6: family == .ipv6, interface: copy.dnssdInterface)
                { [weak self] reply in
                    self?.addressReply(id, copy, family, reply)
                }
                #else
                // The compatibility library has no DNSServiceGetAddrInfo: the A or AAAA record.
                ref = try DNSSDServiceRef.queryRecord(
                    name: host, type: family == .ipv4 ? DNSSDServiceRef.typeA : DNSSDServiceRef.typeAAAA,
                    interface: copy.dnssdInterface
                ) { [weak self] reply in self?.addressReply(id, copy, family, reply) }
                #endif
                deadline = .now + Self.addressTimeout
            case .monitor(let copy):
                guard copies[copy] != nil else { return }
                ref = try DNSSDServiceRef.queryRecord(
                    name: Self.fullName(copy.service), type: DNSSDServiceRef.typeTXT,
                    interface: copy.dnssdInterface
                ) { [weak self] reply in self?.monitorReply(copy, reply) }
                deadline = nil
            }
        } catch {
            if error.meansDaemonUnavailable { return lost() }
            timedOut(purpose)
            return
        }
        running[id] = Running(ref: ref, purpose: purpose, deadline: deadline)
        watch(ref, id: id, browse: nil)
    }

    /// Ends a running ref (closed after the current round of replies).
    private func finish(_ id: Int) {
        if let run = running.removeValue(forKey: id) { retire(run.ref) }
    }

    private func resolveReply(_ id: Int, _ key: ServiceCopyKey, _ reply: DNSSDServiceRef.Reply) {
        guard running[id] != nil else { return }
        switch reply {
        case .resolve(_, let host, let port, let txt):
            finish(id)
            guard copies[key] != nil else { return }
            copies[key]?.answer = ServiceResolution(
                hostName: Self.trimmed(host), port: port, addresses: [], txt: TXTRecord(wireFormat: txt))
            // The addresses first (they finish the resolve), then the TXT monitor.
            for family in [ServiceAddress.Family.ipv4, .ipv6] where configuration.families.contains(family) {
                queue.insert(.address(key, family), at: 0)
            }
            if monitors < configuration.maximumMonitors { queue.append(.monitor(key)) }
        case .failure(let code):
            finish(id)
            let error = DNSSDError(code: code)
            if error.meansDaemonUnavailable { return lost() }
            resolveFailed(key, "the resolve failed: \(error)")
        default:
            break
        }
    }

    private func addressReply(
        _ id: Int, _ key: ServiceCopyKey, _ family: ServiceAddress.Family, _ reply: DNSSDServiceRef.Reply
    ) {
        guard running[id] != nil else { return }
        switch reply {
        case .record(true, let interface, _, let data):
            guard let address = Self.address(data, family: family, interface: interface) else { return }
            finish(id)
            addressRetries[AddressQuery(copy: key, family: family)] = nil
            guard var resolution = resolution(of: key) else { return }
            // One address resolves the copy; the other family's, if it comes, adds to it (the
            // merge's first report waits briefly for it while its query runs).
            resolution.addresses.removeAll { $0.family == family }
            resolution.addresses.append(address)
            record(resolution, of: key, stillAsking: isQueryingAddresses(of: key))
        case .failure(let code):
            finish(id)
            if DNSSDError(code: code).meansDaemonUnavailable { return lost() }
            addressQueryEnded(key, family)
        default:
            break
        }
    }

    private func monitorReply(_ key: ServiceCopyKey, _ reply: DNSSDServiceRef.Reply) {
        guard case .record(true, _, _, let data) = reply, var resolution = resolution(of: key) else {
            if case .failure(let code) = reply, DNSSDError(code: code).meansDaemonUnavailable { lost() }
            return
        }
        let txt = TXTRecord(wireFormat: data)
        guard txt != resolution.txt else { return }
        resolution.txt = txt
        record(resolution, of: key)
    }

    /// What `key` resolved to so far: the resolution reported once an address came, before
    /// that the resolve's answer; nil before the resolve answered.
    private func resolution(of key: ServiceCopyKey) -> ServiceResolution? {
        guard let copy = copies[key] else { return nil }
        return copy.resolution ?? copy.answer
    }

    /// Records what `key` resolved to: reported once it has an address (again on every
    /// change), before that kept as the resolve's answer. `stillAsking`: another family's
    /// address query still runs or waits.
    private func record(_ resolution: ServiceResolution, of key: ServiceCopyKey, stillAsking: Bool = false) {
        guard copies[key] != nil else { return }
        if resolution.addresses.isEmpty {
            copies[key]?.answer = resolution
        } else {
            copies[key]?.answer = nil
            copies[key]?.resolution = resolution
            copies[key]?.hasFailed = false
            retries[key] = nil
            emit([.copyResolved(key, resolution, stillAsking: stillAsking)])
        }
    }

    /// A resolve or address query that ran out of time (or could not start).
    private func timedOut(_ purpose: Purpose) {
        switch purpose {
        case .resolve(let key):
            resolveFailed(key, "no answer to the resolve within \(Self.resolveTimeout)")
        case .address(let key, let family):
            addressQueryEnded(key, family)
        case .monitor:
            break
        }
    }

    /// An address query of `key` for `family` ended unanswered: asked again later when the
    /// copy has an address of the other family (at most ``addressAttempts`` times in all);
    /// once no query runs or waits any more, a copy without any address failed to resolve.
    private func addressQueryEnded(_ key: ServiceCopyKey, _ family: ServiceAddress.Family) {
        let query = AddressQuery(copy: key, family: family)
        if let resolution = copies[key]?.resolution, !resolution.addresses.contains(where: { $0.family == family }) {
            let attempts = (addressRetries[query]?.attempts ?? 1) + 1
            if attempts <= Self.addressAttempts {
                addressRetries[query] = (attempts, .now + Self.addressRetryAfter * (1 << (attempts - 2)))
            }
        }
        guard let copy = copies[key], !isQueryingAddresses(of: key) else { return }
        guard copy.resolution == nil else { return emit([.copyAddressesComplete(key)]) }
        resolveFailed(key, "no A or AAAA record for \(copy.answer?.hostName ?? "?")")
    }

    /// Whether an address query of `key` runs or waits.
    private func isQueryingAddresses(of key: ServiceCopyKey) -> Bool {
        running.values.contains { if case .address(key, _) = $0.purpose { true } else { false } }
            || queue.contains { if case .address(key, _) = $0 { true } else { false } }
    }

    /// Reports `key`'s resolve failed, once, and schedules its next resolve.
    private func resolveFailed(_ key: ServiceCopyKey, _ message: String) {
        if copies[key] != nil {
            let attempts = (retries[key]?.attempts ?? 0) + 1
            let wait = min(Self.retryAfter * (1 << min(attempts - 1, 8)), Self.maximumRetryInterval)
            retries[key] = (attempts, .now + wait)
        }
        guard let copy = copies[key], !copy.hasFailed else { return }
        copies[key]?.hasFailed = true
        emit([.copyFailed(key, DiscoveryError(kind: .other, message: "\(key.service.name): \(message)"))])
    }

    // MARK: - Failures and the daemon

    private func failed(_ id: Int?, browse: String?, _ error: DNSSDError) {
        if error.meansDaemonUnavailable || browse != nil { return lost() }
        if let id, let run = running[id] {
            finish(id)
            timedOut(run.purpose)
        }
    }

    /// A reply said the daemon went away; handled once the round of replies is over.
    private func lost() {
        lossDetected = true
    }

    /// The daemon went away: report it, remove everything, close every ref, try again later.
    private func handleLoss() {
        lossDetected = false
        guard retryAt == nil else { return }
        emit([.stateChanged(.daemonLost)])
        // The merge forgets every copy reported (closeEverything forgets them here).
        closeEverything()
        backoff = .milliseconds(500)
        retryAt = .now + backoff
    }

    private func reconnect(at now: ContinuousClock.Instant) {
        do throws(DNSSDError) {
            try openBrowses()
            retryAt = nil
            emit([.stateChanged(.running)] + configuration.browseTypes.map { .browseStarted(browseType: $0) })
        } catch {
            browses.values.forEach(retire)
            browses = [:]
            backoff = min(backoff * 2, Self.maximumBackoff)
            retryAt = now + backoff
        }
    }

    private func closeEverything() {
        browses.values.forEach(retire)
        browses = [:]
        for id in running.keys.sorted() { finish(id) }
        queue = []
        copies = [:]
        retries = [:]
        addressRetries = [:]
    }

    // MARK: - Helpers

    private func emit(_ events: [BackendEvent]) {
        loop.assertOnLoop()
        for event in events { buffer.yield(event) }
    }

    /// A name without its final dot.
    static func trimmed(_ name: String) -> String {
        name.hasSuffix(".") ? String(name.dropLast()) : name
    }

    /// The instance's full DNS name, escaped (`Name\ 1._googlecast._tcp.local.`).
    static func fullName(_ service: ServiceKey) -> String {
        "\(DNSSDName.escape(service.name)).\(service.type.typeString).\(service.domain)."
    }

    /// An A (4 bytes) or AAAA (16 bytes) record's address on the interface it came from; a
    /// link-local IPv6 one zoned to it (by name, or by index when the interface has gone).
    static func address(_ data: [UInt8], family: ServiceAddress.Family, interface: UInt32) -> ServiceAddress? {
        let name = InterfaceName.of(index: interface)
        let index = Int32(bitPattern: interface)
        switch (family, data.count) {
        case (.ipv4, 4):
            return ServiceAddress(
                .v4(IPv4Address(data[0], data[1], data[2], data[3])), interfaceName: name, interfaceIndex: index)
        case (.ipv6, 16):
            guard let address = IPv6Address(bytes: data) else { return nil }
            return ServiceAddress(
                .v6(address), zone: address.isLinkLocal ? name ?? String(interface) : nil, interfaceName: name,
                interfaceIndex: index)
        default:
            return nil
        }
    }
}

extension ServiceCopyKey {
    /// The interface as dns_sd numbers it.
    fileprivate var dnssdInterface: UInt32 { UInt32(bitPattern: interfaceIndex) }
}
