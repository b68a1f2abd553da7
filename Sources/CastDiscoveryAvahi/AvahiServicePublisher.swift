internal import CAvahi
import CastDiscovery
import Synchronization

/// Publishes services through avahi-daemon: one entry group per registration (the service on
/// each interface chosen and its subtypes), on one client with its own poll thread.
///
/// A name conflict is resolved the way avahi-daemon resolves its own: the next alternative name
/// (`Name #2`), said as `PublishingEvent.renamed(id:from:to:)`. When the daemon restarts (or
/// the host name changes) every registration is made again once it runs.
///
/// Thread rules: the registrations, groups and client are touched on the poll thread
/// (callbacks), or under the poll lock from the caller's thread.
public final class AvahiServicePublisher: ServicePublisher, @unchecked Sendable {
    /// A registration and where it stands with the daemon.
    private final class Entry {
        var registration: ServiceRegistration
        /// The name published (the registration's, or an alternative after a conflict).
        var name: String
        var group: AvahiEntryGroup?
        var renames = 0
        init(_ registration: ServiceRegistration) {
            self.registration = registration
            name = registration.instanceName
        }
    }

    /// The most alternative names tried for one registration before it is given up.
    static let maximumRenames = 32

    public let events: AsyncStream<PublishingEvent>
    private let continuation: AsyncStream<PublishingEvent>.Continuation
    private let dropped = Atomic(0)
    private let poll: AvahiThreadedPoll
    private var client: AvahiClient?
    private var running = false
    private var entries: [Int: Entry] = [:]
    private var idsByGroup: [OpaquePointer: Int] = [:]
    private let closed = LockedValue(false)

    /// Connects to avahi-daemon. Throws when it cannot be reached now (no D-Bus, no daemon),
    /// with the fix; a daemon that goes later is waited for.
    public init() throws(DiscoveryError) {
        if let error = AvahiBackend.unavailability() { throw error }
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(4096))
        do {
            poll = try AvahiThreadedPoll()
        } catch {
            throw AvahiDiagnosis.error(for: error)
        }
        do throws(AvahiError) {
            client = try AvahiClient(
                poll: poll, waitForDaemon: true, callback: publisherClientCallback, userdata: userdata)
            try poll.start()
        } catch {
            client?.free()
            client = nil
            throw AvahiDiagnosis.error(for: error)
        }
    }

    deinit { close() }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate static func from(_ userdata: UnsafeMutableRawPointer?) -> AvahiServicePublisher? {
        userdata.map { Unmanaged<AvahiServicePublisher>.fromOpaque($0).takeUnretainedValue() }
    }

    public var droppedEvents: Int { dropped.load(ordering: .relaxed) }

    public func register(_ registration: ServiceRegistration, id: Int) throws(DiscoveryError) {
        try registration.validate()
        guard !isClosed else { throw Self.closedError }
        let failure: DiscoveryError? = poll.withLock {
            if let old = entries.removeValue(forKey: id) { drop(old) }
            let entry = Entry(registration)
            entries[id] = entry
            guard running, let pointer = client?.pointer else { return nil }
            return publish(entry, id: id, client: pointer)
        }
        if let failure { throw failure }
    }

    public func updateTXT(_ txt: [TXTEntry], id: Int) throws(DiscoveryError) {
        let failure: DiscoveryError? = poll.withLock {
            guard let entry = entries[id] else {
                return DiscoveryError(kind: .badInput, message: "no registration \(id) to update")
            }
            var changed = entry.registration
            changed.txt = txt
            do throws(DiscoveryError) { try changed.validate() } catch { return error }
            entry.registration = changed
            guard let group = entry.group else { return nil }  // published with it when the daemon returns
            do throws(AvahiError) {
                for interface in interfaces(of: changed) {
                    try group.updateTXT(
                        interface: interface, name: entry.name, type: changed.serviceType, txt: txt.map(\.bytes))
                }
                return nil
            } catch {
                return AvahiDiagnosis.error(for: error)
            }
        }
        if let failure { throw failure }
    }

    public func withdraw(id: Int) {
        guard !isClosed else { return }
        poll.withLock {
            if let entry = entries.removeValue(forKey: id) { drop(entry) }
        }
    }

    public func close() {
        let already = closed.withLock { done in
            defer { done = true }
            return done
        }
        guard !already else { return }
        // Each group's free is a call the daemon answers before it returns: every withdrawal
        // (and its goodbyes) is under way when the client goes.
        poll.withLock {
            for entry in entries.values { drop(entry) }
            entries = [:]
        }
        poll.stop()
        client?.free()
        client = nil
        continuation.finish()
    }

    private var isClosed: Bool { closed.withLock { $0 } }

    private static let closedError = DiscoveryError(kind: .other, message: "the publisher is closed")

    // MARK: Poll thread, or under the poll lock

    private func emit(_ event: PublishingEvent) {
        if case .dropped = continuation.yield(event) { dropped.add(1, ordering: .relaxed) }
    }

    private func interfaces(of registration: ServiceRegistration) -> [AvahiIfIndex] {
        registration.interfaceIndexes.isEmpty
            ? [AvahiConstant.interfaceUnspecified]
            : registration.interfaceIndexes.map { AvahiIfIndex(clamping: $0) }
    }

    private func drop(_ entry: Entry) {
        if let pointer = entry.group?.pointer { idsByGroup[pointer] = nil }
        entry.group?.free()
        entry.group = nil
    }

    /// Adds the entry's records to its group (made if needed) and commits; a name another
    /// service of this daemon holds is replaced by the next alternative. Returns the error
    /// that stopped it.
    private func publish(_ entry: Entry, id: Int, client pointer: OpaquePointer) -> DiscoveryError? {
        do throws(AvahiError) {
            let group: AvahiEntryGroup
            if let existing = entry.group {
                group = existing
            } else {
                group = try AvahiEntryGroup(client: pointer, callback: entryGroupCallback, userdata: userdata)
                entry.group = group
                if let groupPointer = group.pointer { idsByGroup[groupPointer] = id }
            }
            while true {
                do throws(AvahiError) {
                    try addRecords(of: entry, to: group)
                    break
                } catch .collision {
                    group.reset()
                    guard rename(entry, id: id) else {
                        return DiscoveryError(
                            kind: .daemonError,
                            message:
                                "no free name for \(SafeText.quoted(entry.registration.instanceName)) after \(Self.maximumRenames) tries"
                        )
                    }
                }
            }
            try group.commit()
            return nil
        } catch {
            if error == .tooManyObjects || error == .tooManyEntries {
                return DiscoveryError(
                    kind: .daemonError,
                    message: "avahi-daemon refused \(SafeText.quoted(entry.name)): \(error.message)",
                    fix:
                        "publish fewer services, or raise objects-per-client-max and entries-per-entry-group-max in avahi-daemon.conf",
                    code: error.code)
            }
            return AvahiDiagnosis.error(for: error)
        }
    }

    private func addRecords(of entry: Entry, to group: AvahiEntryGroup) throws(AvahiError) {
        let registration = entry.registration
        let txt = registration.txt.map(\.bytes)
        for interface in interfaces(of: registration) {
            try group.addService(
                interface: interface, name: entry.name, type: registration.serviceType, port: registration.port,
                txt: txt)
            for subtype in registration.subtypes {
                try group.addSubtype(
                    interface: interface, name: entry.name, type: registration.serviceType,
                    subtype: registration.subtypeBrowseType(subtype))
            }
        }
    }

    /// Moves the entry to the next alternative name; false when it has had too many.
    private func rename(_ entry: Entry, id: Int) -> Bool {
        guard entry.renames < Self.maximumRenames else { return false }
        entry.renames += 1
        let next = AvahiEntryGroup.alternativeName(for: entry.name)
        emit(.renamed(id: id, from: entry.name, to: next))
        entry.name = next
        return true
    }

    fileprivate func clientChanged(_ pointer: OpaquePointer, state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            running = true
            emit(.daemonRunning)
            for (id, entry) in entries.sorted(by: { $0.key < $1.key }) where entry.group == nil {
                if let error = publish(entry, id: id, client: pointer) { emit(.failed(id: id, error: error)) }
            }
        case AVAHI_CLIENT_S_REGISTERING, AVAHI_CLIENT_S_COLLISION:
            // The host name is changing: the records go, and come again once it runs.
            running = false
            for entry in entries.values { drop(entry) }
        case AVAHI_CLIENT_FAILURE:
            running = false
            let error = AvahiError(code: avahi_client_errno(pointer))
            for entry in entries.values {
                if let groupPointer = entry.group?.pointer { idsByGroup[groupPointer] = nil }
                entry.group?.abandon()  // freed with the client
                entry.group = nil
            }
            client?.free()
            client = nil
            // A daemon that went is waited for (NO_FAIL); anything else (the bus went) ends it.
            guard error == .disconnected else {
                emit(.stopped(error: AvahiDiagnosis.error(for: error)))
                return
            }
            emit(.daemonLost(reason: error.message))
            do throws(AvahiError) {
                client = try AvahiClient(
                    poll: poll, waitForDaemon: true, callback: publisherClientCallback, userdata: userdata)
            } catch {
                emit(.stopped(error: AvahiDiagnosis.error(for: error)))
            }
        default:
            break  // connecting: the daemon is not there yet
        }
    }

    fileprivate func groupChanged(_ group: OpaquePointer, state: AvahiEntryGroupState) {
        // A group's first callback runs inside avahi_entry_group_new, before it is known here.
        guard let id = idsByGroup[group], let entry = entries[id], let current = entry.group else { return }
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            emit(.established(id: id, name: entry.name))
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Another host has the name (seen while probing, or later).
            current.reset()
            guard rename(entry, id: id) else {
                emit(
                    .failed(
                        id: id,
                        error: DiscoveryError(
                            kind: .daemonError,
                            message:
                                "no free name for \(SafeText.quoted(entry.registration.instanceName)) after \(Self.maximumRenames) tries"
                        )))
                return
            }
            guard let pointer = client?.pointer else { return }
            if let error = publish(entry, id: id, client: pointer) { emit(.failed(id: id, error: error)) }
        case AVAHI_ENTRY_GROUP_FAILURE:
            let code = client?.pointer.map { avahi_client_errno($0) } ?? AvahiError.failure.code
            emit(.failed(id: id, error: AvahiDiagnosis.error(for: AvahiError(code: code))))
        default:
            break  // uncommitted, registering (probing)
        }
    }
}

// MARK: - The C callbacks (nonisolated, in a library file: they run on the poll thread)

private let publisherClientCallback: AvahiClientCallback = { client, state, userdata in
    guard let client, let publisher = AvahiServicePublisher.from(userdata) else { return }
    publisher.clientChanged(client, state: state)
}

private let entryGroupCallback: AvahiEntryGroupCallback = { group, state, userdata in
    guard let group, let publisher = AvahiServicePublisher.from(userdata) else { return }
    publisher.groupChanged(group, state: state)
}
