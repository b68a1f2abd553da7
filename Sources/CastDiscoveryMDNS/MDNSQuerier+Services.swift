import CastDiscovery

extension MDNSQuerier {
    /// Brings a link's instance copies up to date with its cache: the browses reporting each
    /// instance (a PTR of the browse's name), and each copy's resolution: the newest SRV and
    /// TXT of the instance, and the newest address of the SRV's host in the link's family.
    /// What changed goes to the aggregator, whose events are yielded; what is missing is asked
    /// for, and reported failed after ``resolveTimeout``.
    func reconcile(_ id: MDNSLink.ID, at now: ContinuousClock.Instant) {
        guard var link = links[id] else { return }
        var events: [BackendEvent] = []
        // Which browses report which instances now.
        var wanted: [DNSName: Set<String>] = [:]
        for browse in browses {
            for record in link.cache.records(browse.name, .ptr, at: now) {
                if case .ptr(let instance) = record.data, isInstance(instance) { wanted[instance, default: []].insert(browse.type) }
            }
        }
        for (instance, copy) in link.copies {
            let keep = wanted[instance] ?? []
            guard let key = link.copyKey(instance) else { continue }
            for browse in copy.browses.subtracting(keep) { events += aggregator.remove(key, browseType: browse, at: now).events }
            if keep.isEmpty { link.copies[instance] = nil } else { link.copies[instance]?.browses = copy.browses.intersection(keep) }
        }
        for (instance, types) in wanted.sorted(by: { $0.key.description < $1.key.description }) {
            guard let key = link.copyKey(instance) else { continue }
            var copy = link.copies[instance] ?? MDNSLink.Copy(since: now, nextFollowUp: now)
            for browse in types.subtracting(copy.browses) { events += aggregator.add(key, browseType: browse, at: now).events }
            copy.browses.formUnion(types)
            link.copies[instance] = copy
        }
        // Each copy's resolution.
        var hosts: Set<DNSName> = []
        var questions: [DNSQuestion] = []
        for instance in link.copies.keys.sorted(by: { $0.description < $1.description }) {
            guard var copy = link.copies[instance], let key = link.copyKey(instance) else { continue }
            let srv = link.cache.records(instance, .srv, at: now).first
            let txt = link.cache.records(instance, .txt, at: now).first
            var resolution: ServiceResolution?
            var missing: [DNSQuestion] = []
            if case .srv(_, _, let port, let target)? = srv?.data {
                hosts.insert(target)
                if let address = address(of: target, on: link, at: now), case .txt(let record)? = txt?.data {
                    resolution = ServiceResolution(hostName: Self.hostText(target), port: port, address: address, txt: record)
                } else if address(of: target, on: link, at: now) == nil {
                    missing.append(DNSQuestion(name: target, type: id.ipv6 ? .aaaa : .a))
                }
            } else {
                missing.append(DNSQuestion(name: instance, type: .srv))
            }
            if txt == nil { missing.append(DNSQuestion(name: instance, type: .txt)) }
            if let resolution {
                if resolution != copy.reported {
                    copy.reported = resolution
                    copy.failed = false
                    events += aggregator.resolved(key, resolution, at: now)
                }
            } else {
                if copy.reported != nil {
                    // Its records expired: the copy stays known but pending again.
                    copy.reported = nil
                    copy.since = now
                    copy.followUps = 0
                }
                let noAddress = srv.map { hasNoAddress(of: $0, on: link, at: now) } ?? false
                if !copy.failed, noAddress || now - copy.since >= Self.resolveTimeout {
                    copy.failed = true
                    let what = missing.map { "\($0.type)" }.joined(separator: ", ")
                    events += aggregator.resolveFailed(
                        key, DiscoveryError(kind: .other, message: "no answer with \(what) for \(instance) on \(link.interface.name)"),
                        at: now)
                }
                if !configuration.passive, now >= copy.nextFollowUp, copy.followUps < 4 {
                    questions += missing
                    copy.followUps += 1
                    copy.nextFollowUp = now + .milliseconds(100 << copy.followUps)
                }
            }
            link.copies[instance] = copy
        }
        link.hosts = hosts
        links[id] = link
        emit(events)
        if !questions.isEmpty { ask(questions, on: id, legacy: true, knownAnswers: [], at: now) }
    }

    /// The newest address of `host` on the link, in its family, as the aggregator takes it.
    private func address(of host: DNSName, on link: MDNSLink, at now: ContinuousClock.Instant) -> ServiceAddress? {
        let record = link.cache.records(host, link.id.ipv6 ? .aaaa : .a, at: now).first
        let text: String
        switch record?.data {
        case .a(let address)?: text = address.description
        case .aaaa(let address)?:
            text = address.isLinkLocal ? "\(address)%\(link.interface.name)" : address.description
        default: return nil
        }
        return ServiceAddress(text, interfaceName: link.interface.name, interfaceIndex: link.id.interface)
    }

    /// Whether the host of `srv` said, with an NSEC, that it has no address of the link's family.
    private func hasNoAddress(of srv: DNSResourceRecord, on link: MDNSLink, at now: ContinuousClock.Instant) -> Bool {
        guard case .srv(_, _, _, let target) = srv.data else { return false }
        return link.cache.records(target, .nsec, at: now).contains { record in
            if case .nsec(_, let types) = record.data { return !types.contains(link.id.ipv6 ? .aaaa : .a) }
            return false
        }
    }

    /// A host name as avahi gives it: the escaped labels without the final dot.
    static func hostText(_ name: DNSName) -> String {
        String(name.description.dropLast())
    }
}
