/// Narrows a recording to the browse types a replay was asked for, as a network would: a
/// service is reported only through the requested browses it was recorded in.
struct ReplayBrowseFilter: Sendable {
    private let requested: Set<String>
    private var visible: [ServiceKey: DiscoveredService] = [:]

    init(browseTypes: [String]) {
        requested = Set(browseTypes.map { $0.lowercased() })
    }

    mutating func filter(_ event: BackendEvent) -> BackendEvent? {
        switch event {
        case .found(let service), .updated(let service):
            var narrowed = service
            narrowed.browseTypes = service.browseTypes.filter { requested.contains($0.lowercased()) }
            let wasVisible = visible[service.key] != nil
            if narrowed.browseTypes.isEmpty {
                guard let old = visible.removeValue(forKey: service.key) else { return nil }
                return .removed(old)
            }
            visible[service.key] = narrowed
            return wasVisible ? .updated(narrowed) : .found(narrowed)
        case .removed(let service):
            guard let old = visible.removeValue(forKey: service.key) else { return nil }
            return .removed(old)
        case .cacheExhausted(let browseType), .allForNow(let browseType), .browseStarted(let browseType),
            .copyAdded(_, let browseType), .copyRemoved(_, let browseType):
            return requested.contains(browseType.lowercased()) ? event : nil
        case .sourceProgress(let step):
            return requested.contains(step.browseType.lowercased()) ? event : nil
        case .stateChanged, .resolveFailed, .resolvesPending, .statistics, .copyResolved, .copyAddressesComplete,
            .copyFailed,
            .copyLimit:
            return event
        }
    }
}
