/// The JSON form of a ``ReplayEvent``: `at`, `kind`, and the fields of that kind.
struct ReplayEventCoding: Codable, Sendable {
    struct ErrorCoding: Codable, Sendable {
        var kind: String
        var message: String
        var fix: String?
        var code: Int32?

        init(_ error: DiscoveryError) {
            kind = error.kind.rawValue
            message = error.message
            fix = error.fix
            code = error.code
        }

        func error(path: String) throws(DiscoveryError) -> DiscoveryError {
            guard let errorKind = DiscoveryError.Kind(rawValue: kind) else {
                throw ReplayRecording.badInput("\(path).kind: unknown error kind \(SafeText.quoted(kind))")
            }
            return DiscoveryError(kind: errorKind, message: message, fix: fix, code: code)
        }
    }

    var at: Double
    var kind: String
    var state: String?
    var service: ReplayService?
    var browseType: String?
    var instance: String?
    var type: String?
    var domain: String?
    var error: ErrorCoding?
    var pending: Int?
    var interfaceIndex: Int32?
    var family: ServiceAddress.Family?
    var statistics: BackendStatistics?
    var source: String?
    var role: MergedBackend.Role?
    var milestone: SourceProgress.Milestone?
    var services: Int?
    var stillAsking: Bool?
    var copies: Int?

    /// The longest source name a replay may give (names are a backend's, such as `avahi`).
    static let maximumSourceName = 64

    init(_ event: ReplayEvent) {
        at = event.time
        switch event.event {
        case .stateChanged(let backendState):
            kind = "state"
            switch backendState {
            case .connecting: state = "connecting"
            case .running: state = "running"
            case .daemonLost: state = "daemonLost"
            case .failed(let failure):
                state = "failed"
                error = ErrorCoding(failure)
            }
        case .browseStarted(let browse):
            kind = "browseStarted"
            browseType = browse
        case .copyAdded(let copy, let browse):
            kind = "copyAdded"
            browseType = browse
            setCopy(copy)
        case .copyRemoved(let copy, let browse):
            kind = "copyRemoved"
            browseType = browse
            setCopy(copy)
        case .copyResolved(let copy, let resolution, let asking):
            kind = "copyResolved"
            setCopy(copy)
            let resolved = ResolvedService(
                instanceName: copy.service.name, serviceType: copy.service.type, domain: copy.service.domain,
                hostName: resolution.hostName, port: resolution.port, addresses: resolution.addresses,
                txt: resolution.txt,
                knownHost: resolution.knownHost)
            service = ReplayService(DiscoveredService(service: resolved, browseTypes: []))
            stillAsking = asking ? true : nil
        case .copyAddressesComplete(let copy):
            kind = "copyAddressesComplete"
            setCopy(copy)
        case .copyFailed(let copy, let failure):
            kind = "copyFailed"
            setCopy(copy)
            error = ErrorCoding(failure)
        case .copyLimit(let limit):
            kind = "copyLimit"
            copies = limit
        case .found(let discovered):
            kind = "found"
            service = ReplayService(discovered)
        case .updated(let discovered):
            kind = "updated"
            service = ReplayService(discovered)
        case .removed(let discovered):
            kind = "removed"
            service = ReplayService(discovered)
        case .cacheExhausted(let browse):
            kind = "cacheExhausted"
            browseType = browse
        case .allForNow(let browse):
            kind = "allForNow"
            browseType = browse
        case .resolveFailed(let key, let failure):
            kind = "resolveFailed"
            instance = key.name
            type = key.type == .googleCast ? nil : key.type.typeString
            domain = key.domain == "local" ? nil : key.domain
            error = ErrorCoding(failure)
        case .resolvesPending(let count):
            kind = "resolvesPending"
            pending = count
        case .statistics(let counts):
            kind = "statistics"
            statistics = counts
        case .sourceProgress(let step):
            kind = "sourceProgress"
            source = step.source
            role = step.role
            milestone = step.milestone
            browseType = step.browseType
            services = step.services
        }
    }

    /// Sets the fields that name a copy.
    private mutating func setCopy(_ copy: ServiceCopyKey) {
        instance = copy.service.name
        type = copy.service.type == .googleCast ? nil : copy.service.type.typeString
        domain = copy.service.domain == "local" ? nil : copy.service.domain
        interfaceIndex = copy.interfaceIndex
        family = copy.transport
    }

    /// The copy the fields name.
    private func copyKey(path: String) throws(DiscoveryError) -> ServiceCopyKey {
        let serviceType = try ReplayRecording.serviceType(type, path: "\(path).type")
        guard let instance else {
            throw ReplayRecording.badInput("\(path): kind \(SafeText.quoted(kind)) needs \"instance\"")
        }
        guard let interfaceIndex else {
            throw ReplayRecording.badInput("\(path): kind \(SafeText.quoted(kind)) needs \"interfaceIndex\"")
        }
        let key = ServiceKey(name: instance, type: serviceType, domain: domain ?? "local")
        return ServiceCopyKey(service: key, interfaceIndex: interfaceIndex, transport: family)
    }

    /// The event; `path` names it in messages (`events[3]`).
    func replayEvent(path: String) throws(DiscoveryError) -> ReplayEvent {
        guard at.isFinite, at >= 0, at <= ReplayRecording.maximumTime else {
            throw ReplayRecording.badInput(
                "\(path).at: \(at) is not a time in seconds from 0 to \(Int(ReplayRecording.maximumTime)) (a year)")
        }
        func required<T>(_ value: T?, _ field: String) throws(DiscoveryError) -> T {
            guard let value else {
                throw ReplayRecording.badInput("\(path): kind \(SafeText.quoted(kind)) needs \"\(field)\"")
            }
            return value
        }
        let event: BackendEvent
        switch kind {
        case "state":
            switch try required(state, "state") {
            case "connecting": event = .stateChanged(.connecting)
            case "running": event = .stateChanged(.running)
            case "daemonLost": event = .stateChanged(.daemonLost)
            case "failed":
                event = .stateChanged(.failed(try required(error, "error").error(path: "\(path).error")))
            case let other:
                throw ReplayRecording.badInput(
                    "\(path).state: unknown state \(SafeText.quoted(other)) (expected one of \(ReplayEvent.states.joined(separator: ", ")))"
                )
            }
        case "browseStarted":
            event = .browseStarted(browseType: try required(browseType, "browseType"))
        case "copyAdded":
            event = .copyAdded(try copyKey(path: path), browseType: try required(browseType, "browseType"))
        case "copyRemoved":
            event = .copyRemoved(try copyKey(path: path), browseType: try required(browseType, "browseType"))
        case "copyResolved":
            let copy = try copyKey(path: path)
            let resolved = try required(service, "service").discoveredService(path: "\(path).service").service
            let resolution = ServiceResolution(
                hostName: resolved.hostName, port: resolved.port, addresses: resolved.addresses, txt: resolved.txt,
                knownHost: resolved.knownHost)
            event = .copyResolved(copy, resolution, stillAsking: stillAsking ?? false)
        case "copyAddressesComplete":
            event = .copyAddressesComplete(try copyKey(path: path))
        case "copyFailed":
            event = .copyFailed(try copyKey(path: path), try required(error, "error").error(path: "\(path).error"))
        case "copyLimit":
            let limit = try required(copies, "copies")
            guard limit > 0 else { throw ReplayRecording.badInput("\(path).copies: must be at least 1") }
            event = .copyLimit(limit)
        case "found":
            event = .found(try required(service, "service").discoveredService(path: "\(path).service"))
        case "updated":
            event = .updated(try required(service, "service").discoveredService(path: "\(path).service"))
        case "removed":
            event = .removed(try required(service, "service").discoveredService(path: "\(path).service"))
        case "cacheExhausted":
            event = .cacheExhausted(browseType: try required(browseType, "browseType"))
        case "allForNow":
            event = .allForNow(browseType: try required(browseType, "browseType"))
        case "resolvesPending":
            let count = try required(pending, "pending")
            guard count >= 0 else { throw ReplayRecording.badInput("\(path).pending: must not be negative") }
            event = .resolvesPending(count)
        case "statistics":
            event = .statistics(try required(statistics, "statistics"))
        case "resolveFailed":
            let serviceType = try ReplayRecording.serviceType(type, path: "\(path).type")
            let key = ServiceKey(name: try required(instance, "instance"), type: serviceType, domain: domain ?? "local")
            event = .resolveFailed(key, try required(error, "error").error(path: "\(path).error"))
        case "sourceProgress":
            let name = try required(source, "source")
            guard !name.isEmpty, name.utf8.count <= Self.maximumSourceName else {
                throw ReplayRecording.badInput("\(path).source: must be 1 to \(Self.maximumSourceName) bytes")
            }
            let count = try required(services, "services")
            guard count >= 0 else { throw ReplayRecording.badInput("\(path).services: must not be negative") }
            event = .sourceProgress(
                SourceProgress(
                    source: name, role: try required(role, "role"), browseType: try required(browseType, "browseType"),
                    milestone: try required(milestone, "milestone"), services: count))
        default:
            throw ReplayRecording.badInput(
                "\(path).kind: unknown event kind \(SafeText.quoted(kind)) (expected one of \(ReplayEvent.kinds.joined(separator: ", ")))"
            )
        }
        return ReplayEvent(time: at, event: event)
    }
}
