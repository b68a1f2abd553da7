import CastDiscovery

extension MDNSQuerier {
    /// Brings the copies of `instances` on a link up to date with its cache: the browses
    /// reporting each instance (a PTR of the browse's name), and each copy's resolution: the
    /// newest SRV and TXT of the instance, and the newest address of the SRV's host, in the
    /// link's family if it has one, else in the other. What changed is reported; what is
    /// missing is asked for, and reported failed after ``resolveTimeout``. Costs the instances
    /// named, not the instances known.
    func reconcile(_ id: MDNSLink.ID, _ instances: Set<DNSName>, at now: ContinuousClock.Instant) {
        guard !instances.isEmpty, var link = links.removeValue(forKey: id) else { return }
        var events: [BackendEvent] = []
        var questions: [DNSQuestion] = []
        for instance in instances.sorted(by: Self.nameOrder) {
            guard let key = link.copyKey(instance) else { continue }
            let reporting = Set(
                browses.filter { link.cache.contains($0.name, .ptr, .ptr(instance), at: now) }.map(\.type))
            guard
                var copy = link.copies[instance]
                    ?? (reporting.isEmpty ? nil : MDNSLink.Copy(key: key, since: now, nextFollowUp: now))
            else { continue }
            events += reporting.subtracting(copy.browses).sorted().map { BackendEvent.copyAdded(key, browseType: $0) }
            events += copy.browses.subtracting(reporting).sorted().map { BackendEvent.copyRemoved(key, browseType: $0) }
            copy.browses = reporting
            if reporting.isEmpty {
                link.setHost(nil, of: instance)
                link.copies[instance] = nil
                continue
            }
            let srv = link.cache.records(instance, .srv, at: now).first
            let txt = link.cache.records(instance, .txt, at: now).first
            var resolution: ServiceResolution?
            var missing: [DNSQuestion] = []
            if case .srv(_, _, let port, let target)? = srv?.data {
                link.setHost(target, of: instance)
                let address = address(of: target, on: link, at: now)
                if let address, case .txt(let record)? = txt?.data {
                    resolution = ServiceResolution(
                        hostName: Self.hostText(target), port: port, address: address, txt: record)
                } else if address == nil {
                    missing += Self.addressTypes(on: id).map { DNSQuestion(name: target, type: $0) }
                }
            } else {
                link.setHost(nil, of: instance)
                missing.append(DNSQuestion(name: instance, type: .srv))
            }
            if txt == nil { missing.append(DNSQuestion(name: instance, type: .txt)) }
            if let resolution {
                if !copy.isResolved || resolution != copy.reported {
                    copy.isResolved = true
                    copy.reported = resolution
                    copy.hasFailed = false
                    events.append(.copyResolved(key, resolution, stillAsking: false))
                }
            } else {
                if copy.isResolved {
                    // Its records expired: the copy stays known but is asked for again.
                    copy.isResolved = false
                    copy.since = now
                    copy.followUps = 0
                    copy.nextFollowUp = now
                }
                let noAddress = srv.map { hasNoAddress(of: $0, on: link, at: now) } ?? false
                if !copy.hasFailed, noAddress || now - copy.since >= Self.resolveTimeout {
                    let what = missing.map { "\($0.type)" }.joined(separator: ", ")
                    copy.hasFailed = true
                    events.append(
                        .copyFailed(
                            key,
                            DiscoveryError(
                                kind: .other,
                                message: "no answer with \(what) for \(instance) on \(link.interface.name)")))
                }
                if !configuration.passive, now >= copy.nextFollowUp, copy.followUps < Self.followUpLimit {
                    questions += missing
                    copy.followUps += 1
                    copy.nextFollowUp = now + .milliseconds(100 << copy.followUps)
                }
            }
            link.copies[instance] = copy
        }
        links[id] = link
        emit(events, at: now)
        if !questions.isEmpty { ask(questions, on: id, legacy: true, knownAnswers: [], at: now) }
    }

    /// The instances a set of records is about on a link: a PTR's target, an SRV's or TXT's
    /// owner, and the instances on an address's (or NSEC's) host.
    func instances(touchedBy records: some Sequence<DNSResourceRecord>, on link: MDNSLink) -> Set<DNSName> {
        var touched: Set<DNSName> = []
        for record in records {
            switch record.data {
            case .ptr(let instance): if isInstance(instance) { touched.insert(instance) }
            case .srv, .txt: if isInstance(record.name) { touched.insert(record.name) }
            default: touched.formUnion(link.hostInstances[record.name] ?? [])
            }
        }
        return touched
    }

    /// The copies whose resolve has a timer due at `now`: a follow-up question or the timeout.
    func copiesDue(on link: MDNSLink, at now: ContinuousClock.Instant) -> Set<DNSName> {
        var due: Set<DNSName> = []
        for (instance, copy) in link.copies where !copy.isResolved {
            if let deadline = resolveDeadline(of: copy), deadline <= now { due.insert(instance) }
        }
        return due
    }

    /// When an unresolved copy next needs attention: its next follow-up, or its resolve timeout
    /// while not yet reported failed; nil when neither is left.
    func resolveDeadline(of copy: MDNSLink.Copy) -> ContinuousClock.Instant? {
        guard !copy.isResolved else { return nil }
        var next: ContinuousClock.Instant?
        if !copy.hasFailed { next = copy.since + Self.resolveTimeout }
        if !configuration.passive, copy.followUps < Self.followUpLimit {
            next = min(next ?? copy.nextFollowUp, copy.nextFollowUp)
        }
        return next
    }

    /// A fixed order of names (by their wire bytes), for reproducible event order.
    static func nameOrder(_ a: DNSName, _ b: DNSName) -> Bool {
        a.wire.lexicographicallyPrecedes(b.wire)
    }

    /// The address record types, the link's family first.
    static func addressTypes(on id: MDNSLink.ID) -> [DNSRecordType] {
        id.ipv6 ? [.aaaa, .a] : [.a, .aaaa]
    }

    /// The newest address of `host` on the link, as a copy's resolution gives it: of the link's
    /// family, else of the other (a device may answer over IPv4 with only its IPv6 address, and
    /// that address is as usable).
    private func address(of host: DNSName, on link: MDNSLink, at now: ContinuousClock.Instant) -> ServiceAddress? {
        let record = Self.addressTypes(on: link.id).lazy.compactMap { link.cache.records(host, $0, at: now).first }
            .first
        switch record?.data {
        case .a(let address)?:
            return ServiceAddress(address, interfaceName: link.interface.name, interfaceIndex: link.id.interface)
        case .aaaa(let address)?:
            return ServiceAddress(address, interfaceName: link.interface.name, interfaceIndex: link.id.interface)
        default: return nil
        }
    }

    /// Whether the host of `srv` said, with an NSEC, that it has no address of either family.
    private func hasNoAddress(of srv: DNSResourceRecord, on link: MDNSLink, at now: ContinuousClock.Instant) -> Bool {
        guard case .srv(_, _, _, let target) = srv.data else { return false }
        return link.cache.records(target, .nsec, at: now).contains { record in
            if case .nsec(_, let types) = record.data { return !types.contains(.a) && !types.contains(.aaaa) }
            return false
        }
    }

    /// A host name as avahi gives it: the escaped labels without the final dot.
    static func hostText(_ name: DNSName) -> String {
        String(name.description.dropLast())
    }
}
