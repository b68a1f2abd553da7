internal import CAvahi
import CastDiscovery
import Dispatch

/// One browse of a set of types over one client on its own threaded poll: creates the
/// browsers, resolves every copy of every instance, and yields what it sees of each copy.
///
/// Thread rules: everything below `poll` is touched only on the poll thread (callbacks), or
/// on the creating thread before the poll starts, or after it is stopped.
final class AvahiBrowseSession: @unchecked Sendable {
    private let poll: AvahiThreadedPoll
    private let browseTypes: [String]
    /// The interface browsed (the request filter's), or every one.
    private let interface: AvahiIfIndex
    private let baseTypes: [String: ServiceType]
    private let buffer: BackendEventBuffer
    private var client: AvahiClient?
    private var browsers: [OpaquePointer: AvahiServiceBrowser] = [:]
    /// The open resolvers by the copy they resolve, and by their pointer (for callbacks).
    private var resolvers: [ServiceCopyKey: AvahiServiceResolver] = [:]
    private var resolversByPointer: [OpaquePointer: AvahiServiceResolver] = [:]
    /// What was reported of each copy the browsers report.
    private var copies: [ServiceCopyKey: Copy] = [:]

    private struct Copy {
        /// The browses that report it.
        var browses: Set<String> = []
        /// Its last resolution reported.
        var resolution: ServiceResolution?
        /// Whether it is left to the asking sources, which resolved its service.
        var isLeftToOthers = false
    }
    /// Copies whose resolver was dropped after a moved SRV, resolved afresh by the restart timer.
    private var staleCopies: Set<ServiceCopyKey> = []
    private var restartTimer: AvahiTimer?
    /// Beside asking sources: what they resolve, so each copy they resolve is not resolved here
    /// again (``ResolutionLedger``); nil when this browse resolves every copy.
    private let ledger: ResolutionLedger?
    private var ledgerToken: Int?
    /// New copies waiting for the asking sources to resolve them, with when they are due to be
    /// resolved here if they have not.
    private var deferred = CopySchedule()
    private var deferralTimer: AvahiTimer?
    /// Copies whose resolve timed out before any copy of their service resolved, with when they
    /// are given up: their resolvers stay open and keep asking (``lateAnswerWindow``).
    private var lateAnswers = CopySchedule()
    private var lateAnswerTimer: AvahiTimer?
    /// When ``deferralTimer`` is armed to fire; nil when it is not.
    private var deferralArmedFor: ContinuousClock.Instant?
    /// Beside asking sources: the timer that connects on the poll thread, and whether it waits
    /// for a daemon that is not there.
    private var connectTimer: AvahiTimer?
    /// Where the ledger's notices are taken, in order (``hear(_:)``).
    private let notices = DispatchQueue(label: "cast-discovery.avahi.ledger")
    private var connectWaitsForDaemon = false
    private var finished = false
    private let shutDown = LockedValue(false)

    /// Prepares a browse of the request's types on its filter's interface (every one without);
    /// nothing runs until ``start(waitForDaemon:)``.
    init(request: BrowseRequest, buffer: BackendEventBuffer) throws(DiscoveryError) {
        browseTypes = request.browseTypes
        baseTypes = request.serviceTypesByName.mapValues(\.base)
        interface = interfaceIndex(name: request.filter.interfaceName)
        ledger = request.resolvedElsewhere
        self.buffer = buffer
        do {
            poll = try AvahiThreadedPoll()
        } catch {
            throw AvahiDiagnosis.error(for: error)
        }
    }

    /// Connects and starts the poll thread. Throws when the daemon or the bus cannot be
    /// reached; the caller then calls ``shutdown()``.
    func start(waitForDaemon: Bool) throws(DiscoveryError) {
        do {
            restartTimer = try AvahiTimer(poll: poll, callback: restartCallback, userdata: userdata)
            lateAnswerTimer = try AvahiTimer(poll: poll, callback: lateAnswerCallback, userdata: userdata)
            if let ledger {
                deferralTimer = try AvahiTimer(poll: poll, callback: deferralCallback, userdata: userdata)
                ledgerToken = ledger.observe { [weak self] notice in self?.hear(notice) }
            }
            if ledger != nil {
                // Beside asking sources: the client connects on the poll thread, so a daemon
                // still busy with the answers to a scan a moment ago (0.3 to 1.3 s in the
                // 500-device lab) does not hold up their start; failing, this source is absent.
                connectWaitsForDaemon = waitForDaemon
                connectTimer = try AvahiTimer(poll: poll, callback: connectCallback, userdata: userdata)
                connectTimer?.arm(milliseconds: 0)
            } else {
                client = try AvahiClient(
                    poll: poll, waitForDaemon: waitForDaemon, callback: clientCallback, userdata: userdata)
            }
            try poll.start()
        } catch {
            throw AvahiDiagnosis.error(for: error)
        }
    }

    /// Connects on the poll thread (``start(waitForDaemon:)`` beside asking sources).
    fileprivate func connect() {
        guard client == nil, !finished else { return }
        do throws(AvahiError) {
            client = try AvahiClient(
                poll: poll, waitForDaemon: connectWaitsForDaemon, callback: clientCallback, userdata: userdata)
        } catch {
            fail(AvahiDiagnosis.error(for: error))
        }
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Stops the poll thread and frees every Avahi object. Never call from the poll thread.
    func shutdown() {
        let already = shutDown.withLock { done in
            defer { done = true }
            return done
        }
        guard !already else { return }
        if let ledger, let ledgerToken { ledger.stopObserving(ledgerToken) }
        poll.stop()
        client?.free()  // frees browsers and resolvers too
        client = nil
        restartTimer?.free()
        restartTimer = nil
        connectTimer?.free()
        connectTimer = nil
        deferralTimer?.free()
        deferralTimer = nil
        deferred.removeAll()
        lateAnswerTimer?.free()
        lateAnswerTimer = nil
        lateAnswers.removeAll()
        browsers = [:]
        resolvers = [:]
        resolversByPointer = [:]
        finish()
    }

    // MARK: Callbacks (poll thread, lock held)

    fileprivate func clientChanged(_ pointer: OpaquePointer, state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            emit(.stateChanged(.running))
            // The daemon returns to running after a host name change too: browse only once
            // per client.
            if browsers.isEmpty { startBrowsers(on: pointer) }
        case AVAHI_CLIENT_CONNECTING:
            emit(.stateChanged(.connecting))
        case AVAHI_CLIENT_FAILURE:
            let error = AvahiError(code: avahi_client_errno(pointer))
            if error == .disconnected {
                reconnect(after: pointer)
            } else {
                fail(AvahiDiagnosis.error(for: error))
            }
        default:
            break  // registering / collision concern publishing only
        }
    }

    fileprivate func browserEvent(
        _ browser: OpaquePointer, interface: AvahiIfIndex, protocol: AvahiProtocol,
        event: AvahiBrowserEvent, name: UnsafePointer<CChar>?, domain: UnsafePointer<CChar>?
    ) {
        guard let browseType = browsers[browser]?.browseType else { return }
        switch event {
        case AVAHI_BROWSER_NEW, AVAHI_BROWSER_REMOVE:
            guard let name, let domain, let base = baseTypes[browseType] else { return }
            let domainString = String(cString: domain)
            let key = ServiceCopyKey(
                service: ServiceKey(name: String(cString: name), type: base, domain: domainString),
                interfaceIndex: interface, transport: .init(avahiProtocol: `protocol`))
            if event == AVAHI_BROWSER_NEW {
                let isNew = copies[key] == nil
                guard copies[key, default: Copy()].browses.insert(browseType).inserted else { return }
                emit(.copyAdded(key, browseType: browseType))
                if isNew { resolveOrDefer(key) }
            } else {
                guard copies[key]?.browses.remove(browseType) != nil else { return }
                if copies[key]?.browses.isEmpty == true {
                    copies[key] = nil
                    freeResolver(of: key)
                    deferred.remove(key)
                    lateAnswers.remove(key)
                }
                emit(.copyRemoved(key, browseType: browseType))
            }
        case AVAHI_BROWSER_CACHE_EXHAUSTED:
            emit(.cacheExhausted(browseType: browseType))
        case AVAHI_BROWSER_ALL_FOR_NOW:
            emit(.allForNow(browseType: browseType))
        case AVAHI_BROWSER_FAILURE:
            fail(AvahiDiagnosis.error(for: client?.lastError ?? .failure, browsing: browseType))
        default:
            break
        }
    }

    fileprivate func resolverEvent(
        _ resolver: OpaquePointer, interface: AvahiIfIndex, event: AvahiResolverEvent,
        hostName: UnsafePointer<CChar>?, address: UnsafePointer<AvahiAddress>?, port: UInt16,
        txt: UnsafeMutablePointer<AvahiStringList>?
    ) {
        guard let open = resolversByPointer[resolver] else { return }
        let key = open.copy
        if event == AVAHI_RESOLVER_FOUND {
            let resolution = ServiceResolution(
                hostName: hostName.map { String(cString: $0) } ?? "",
                port: port,
                address: address.flatMap { serviceAddress($0, interfaceIndex: interface) },
                txt: TXTRecord(strings: txtStrings(txt)))
            let isFirstAnswer = !open.hasAnswered
            open.hasAnswered = true
            if !isFirstAnswer, let previous = copies[key]?.resolution, previous.hostName != resolution.hostName {
                // The SRV moved to another host (a group's new leader). The open resolver
                // reports the new host with the old host's address and never corrects it, and a
                // new resolver made at once can still read the old SRV, which the cache keeps for
                // a second after the flush (RFC 6762 section 10.2). So drop this answer and
                // resolve the copy afresh once that second is over.
                freeResolver(of: key)
                staleCopies.insert(key)
                restartTimer?.arm(milliseconds: Self.cacheFlushDelay)
                return
            }
            lateAnswers.remove(key)
            guard copies[key] != nil else { return }
            copies[key]?.resolution = resolution
            copies[key]?.isLeftToOthers = false
            emit(.copyResolved(key, resolution, stillAsking: false))
        } else {
            let error = client?.lastError ?? .failure
            guard error == .timeout, !open.hasAnswered else {
                freeResolver(of: key)
                emit(.copyFailed(key, AvahiDiagnosis.error(for: error)))
                return
            }
            // avahi-daemon's resolver times out after 5 s but goes on asking (its record
            // browsers live until it is freed), and reports FOUND when the answers come: under
            // load (a cold daemon and 500 devices) they come at its next query, 2 s later. So the
            // resolver stays open, and a copy whose service no other copy resolved stays pending
            // for that query too, so a scan does not end without the device.
            guard !isResolved(key.service) else {
                emit(.copyFailed(key, AvahiDiagnosis.error(for: error)))
                return
            }
            lateAnswers.add(key, until: .now + Self.lateAnswerWindow)
            armLateAnswerTimer()
        }
    }

    /// Whether a copy of `service` resolved, here or (beside asking sources) there.
    private func isResolved(_ service: ServiceKey) -> Bool {
        if ledger?.isResolved(service) == true { return true }
        return copies.contains { $0.key.service == service && $0.value.resolution != nil }
    }

    /// How long a copy whose resolve timed out stays pending for a late answer: avahi-daemon
    /// asks at 0, 1, 3 and 7 s (doubling), times out at 5 s, and the answer to its 7-s question
    /// comes within this.
    static let lateAnswerWindow: Duration = .seconds(3)

    /// Gives up the copies whose late answer is overdue: reported failed, their resolvers still
    /// open (an answer after that still resolves them).
    fileprivate func giveUpLateAnswers() {
        let now = ContinuousClock.now
        for key in lateAnswers.takeDue(at: now) where copies[key] != nil && copies[key]?.resolution == nil {
            emit(.copyFailed(key, AvahiDiagnosis.error(for: .timeout)))
        }
        armLateAnswerTimer()
    }

    private func armLateAnswerTimer() {
        guard let due = lateAnswers.nextDue() else { return }
        lateAnswerTimer?.arm(
            milliseconds: UInt32(clamping: max(ContinuousClock.now.duration(to: due), .zero).roundedUpMilliseconds))
    }

    /// Frees the resolver of `key`, if one is open.
    private func freeResolver(of key: ServiceCopyKey) {
        guard let resolver = resolvers.removeValue(forKey: key) else { return }
        resolversByPointer[resolver.pointer] = nil
        resolver.free()
    }

    fileprivate func restartStaleResolvers() {
        let stale = staleCopies
        staleCopies = []
        for key in stale where resolvers[key] == nil && copies[key]?.resolution != nil {
            startResolver(for: key)
        }
    }

    /// Resolves the deferred copies that are due (see ``resolveUnlessResolvedElsewhere(_:)``).
    fileprivate func resolveDueCopies() {
        deferralArmedFor = nil
        resolveUnlessResolvedElsewhere(deferred.takeDue(at: .now))
    }

    /// Resolves those of `copies` whose service no asking source has resolved; the others are
    /// left to them.
    private func resolveUnlessResolvedElsewhere(_ keys: [ServiceCopyKey]) {
        for key in keys {
            if ledger?.isResolved(key.service) == true {
                leaveToOthers(key)
            } else {
                startResolver(for: key)
            }
        }
        armDeferralTimer()
    }

    /// Leaves `key` to the asking sources, which resolved its service: it is not resolved here
    /// (the merge counts it pending no more, its service being resolved).
    private func leaveToOthers(_ key: ServiceCopyKey) {
        guard copies[key] != nil, copies[key]?.resolution == nil else { return }
        copies[key]?.isLeftToOthers = true
    }

    /// The copies left to the asking sources, of `services` only when given, in key order; they
    /// are taken back (no longer left).
    private func takeBackCopies(of services: Set<ServiceKey>? = nil) -> [ServiceCopyKey] {
        let left = copies.filter { $0.value.isLeftToOthers && (services?.contains($0.key.service) ?? true) }.map(\.key)
            .sorted {
                ($0.service, $0.interfaceIndex, $0.transport == .ipv6 ? 1 : 0) < (
                    $1.service, $1.interfaceIndex, $1.transport == .ipv6 ? 1 : 0
                )
            }
        for key in left { copies[key]?.isLeftToOthers = false }
        return left
    }

    /// A notice of the ledger (from the merge's reader, not the poll thread). Copies left to the
    /// asking sources that they no longer resolve get a deferral of their own before they are
    /// resolved here: a device that said goodbye is removed by this browse within it, so it is
    /// not resolved again on its way out. Once the asking sources' first round is over (settled),
    /// the copies still waiting for it are resolved here unless they resolved them. Once the
    /// ledger closes, every copy is resolved here.
    /// Takes a notice of the ledger on its own queue: the caller (the discovery loop, telling
    /// the ledger what the asking sources resolved) must not wait for the poll lock, which the
    /// poll thread holds for as long as the client takes to connect to a busy daemon.
    private func hear(_ notice: ResolutionLedger.Notice) {
        notices.async { self.apply(notice) }
    }

    private func apply(_ notice: ResolutionLedger.Notice) {
        shutDown.withLock { done in
            guard !done else { return }
            poll.withLock {
                switch notice {
                case .released(let services):
                    guard let ledger else { return }
                    for key in takeBackCopies(of: services) {
                        deferred.add(key, until: .now + ledger.deferral)
                    }
                    armDeferralTimer()
                case .settled:
                    // The asking sources' first round is over: what they left unresolved is ours.
                    resolveUnlessResolvedElsewhere(deferred.takeAll())
                    return
                case .closed:
                    for key in takeBackCopies() + deferred.takeAll() { startResolver(for: key) }
                }
            }
        }
    }

    /// Starts resolving a new copy, or, beside asking sources, gives them their round first.
    private func resolveOrDefer(_ key: ServiceCopyKey) {
        guard let ledger, ledger.isOpen else { return startResolver(for: key) }
        if ledger.isResolved(key.service) {
            leaveToOthers(key)
            return
        }
        deferred.add(key, until: .now + ledger.currentDeferral)
        armDeferralTimer()
    }

    private func armDeferralTimer() {
        guard let due = deferred.nextDue(), due != deferralArmedFor else { return }
        deferralArmedFor = due
        let wait = max(ContinuousClock.now.duration(to: due), .zero)
        deferralTimer?.arm(milliseconds: UInt32(clamping: wait.roundedUpMilliseconds))
    }

    /// How long after a cache-flushing answer the old record may still be read (1 s), plus margin.
    private static let cacheFlushDelay: UInt32 = 1500

    // MARK: Helpers (poll thread, or creating thread before the poll starts)

    private func startBrowsers(on pointer: OpaquePointer) {
        for type in browseTypes {
            do {
                let browser = try AvahiServiceBrowser(
                    client: pointer, browseType: type, interface: interface, callback: browserCallback,
                    userdata: userdata)
                browsers[browser.pointer] = browser
                emit(.browseStarted(browseType: type))
            } catch {
                fail(AvahiDiagnosis.error(for: error, browsing: type))
                return
            }
        }
    }

    /// Starts the resolver of `key` on its interface and protocol.
    private func startResolver(for key: ServiceCopyKey) {
        guard let pointer = client?.pointer, resolvers[key] == nil else { return }
        do {
            let resolver = try AvahiServiceResolver(
                client: pointer, copy: key, interface: key.interfaceIndex,
                protocol: key.transport?.avahiProtocol ?? AvahiConstant.protocolUnspecified, name: key.service.name,
                type: key.service.type.description, domain: key.service.domain, callback: resolverCallback,
                userdata: userdata)
            resolvers[key] = resolver
            resolversByPointer[resolver.pointer] = resolver
        } catch {
            emit(.copyFailed(key, AvahiDiagnosis.error(for: error)))
        }
    }

    /// The daemon went away: report everything removed, free the dead client, and wait for
    /// the daemon to come back on a new client that does not give up.
    private func reconnect(after pointer: OpaquePointer) {
        // The merge forgets every copy this browse reported.
        emit(.stateChanged(.daemonLost))
        copies = [:]
        browsers = [:]
        resolvers = [:]
        resolversByPointer = [:]
        staleCopies = []
        deferred.removeAll()
        lateAnswers.removeAll()
        client?.free()
        client = nil
        do {
            client = try AvahiClient(poll: poll, waitForDaemon: true, callback: clientCallback, userdata: userdata)
        } catch {
            fail(AvahiDiagnosis.error(for: error))
        }
    }

    private func fail(_ error: DiscoveryError) {
        emit(.stateChanged(.failed(error)))
        finish()
    }

    private func emit(_ event: BackendEvent) {
        guard !finished else { return }
        buffer.yield(event)
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        buffer.finish()
    }

    fileprivate static func from(_ userdata: UnsafeMutableRawPointer?) -> AvahiBrowseSession? {
        userdata.map { Unmanaged<AvahiBrowseSession>.fromOpaque($0).takeUnretainedValue() }
    }
}

// The C callbacks: plain functions, never actor-isolated, forwarding to the session.

private let clientCallback: AvahiClientCallback = { client, state, userdata in
    guard let client, let session = AvahiBrowseSession.from(userdata) else { return }
    session.clientChanged(client, state: state)
}

private let browserCallback: AvahiServiceBrowserCallback = {
    browser, interface, proto, event, name, _, domain, _, userdata in
    guard let browser, let session = AvahiBrowseSession.from(userdata) else { return }
    session.browserEvent(browser, interface: interface, protocol: proto, event: event, name: name, domain: domain)
}

private let connectCallback: AvahiTimeoutCallback = { _, userdata in
    AvahiBrowseSession.from(userdata)?.connect()
}

private let restartCallback: AvahiTimeoutCallback = { _, userdata in
    AvahiBrowseSession.from(userdata)?.restartStaleResolvers()
}

private let lateAnswerCallback: AvahiTimeoutCallback = { _, userdata in
    AvahiBrowseSession.from(userdata)?.giveUpLateAnswers()
}

private let deferralCallback: AvahiTimeoutCallback = { _, userdata in
    AvahiBrowseSession.from(userdata)?.resolveDueCopies()
}

private let resolverCallback: AvahiServiceResolverCallback = {
    resolver, interface, _, event, _, _, _, hostName, address, port, txt, _, userdata in
    guard let resolver, let session = AvahiBrowseSession.from(userdata) else { return }
    session.resolverEvent(
        resolver, interface: interface, event: event, hostName: hostName, address: address, port: port, txt: txt)
}
