/// Everything a ``DiscoveryManager`` tells an application, in the order it happened.
///
/// The same events arrive through ``DiscoveryManager/events()`` and, one method per case,
/// through ``DiscoveryManagerDelegate``; only a stream whose consumer fell behind has
/// ``eventsDropped(_:)``.
public enum DiscoveryEvent: Sendable, Hashable {
    /// Discovery started, browsing these types (the base type, then the criteria's subtypes).
    case discoveryStarted(browseTypes: [String])
    /// Discovery started while devices kept from the last run were listed; sent right after
    /// ``discoveryStarted(browseTypes:)``, before any result of the new scan.
    case hadDiscoveredDevicesWhenStarting(count: Int)
    /// Discovery stopped, and why.
    case discoveryStopped(DiscoveryStopReason)
    /// Discovery could not start (the backend refused); it stays stopped.
    case discoveryFailedToStart(DiscoveryError)
    /// A batch of list changes follows (one batch per backend event that changed the list).
    case willUpdateDeviceList
    /// The batch of list changes announced by ``willUpdateDeviceList`` is complete.
    case didUpdateDeviceList
    /// A device was inserted at an index.
    case inserted(CastDevice, at: Int)
    /// A device changed and kept its index.
    case updated(CastDevice, at: Int)
    /// A device changed and moved: it left `from` and was inserted at `to`.
    case updatedAndMoved(CastDevice, from: Int, to: Int)
    /// The device at an index was removed.
    case removed(CastDevice, at: Int)
    /// The backend's connection state changed.
    case backendStateChanged(BackendState)
    /// A browse delivered everything its daemon had cached.
    case cacheExhausted(browseType: String)
    /// A browse expects no more results soon; sent after any list changes it caused.
    case allForNow(browseType: String)
    /// Resolving one copy of an instance failed; other copies may still resolve.
    case resolveFailed(ServiceKey, DiscoveryError)
    /// What the backend counted (packets taken, dropped and why); from backends that read the
    /// network themselves, at most once a second.
    case backendStatistics(BackendStatistics)
    /// One browse of the scan has settled (see ``ScanProgress``): what settled it and when.
    case browseSettled(BrowseSettlement)
    /// The scan has everything the network had to say for now (see ``ScanProgress``); sent
    /// once per run, after the list changes that completed it, with the list at that moment.
    case scanCompleted(ScanCompletion)
    /// The subscriber fell ``DiscoveryManager/subscriberCapacity`` events behind: the events it
    /// had not read are gone, replaced by this, which says how many and carries the list and
    /// state they left. The events after it follow on from that state. Never sent to the
    /// delegate, which the manager calls for every event as it happens.
    case eventsDropped(MissedEvents)

    /// The list change this event carries, if it is one.
    public var listChange: DeviceListChange? {
        switch self {
        case .inserted(let device, let index): .inserted(device, at: index)
        case .updated(let device, let index): .updated(device, at: index)
        case .updatedAndMoved(let device, let from, let to): .updatedAndMoved(device, from: from, to: to)
        case .removed(let device, let index): .removed(device, at: index)
        default: nil
        }
    }

    /// The event announcing a list change.
    public init(_ change: DeviceListChange) {
        switch change {
        case .inserted(let device, let index): self = .inserted(device, at: index)
        case .updated(let device, let index): self = .updated(device, at: index)
        case .updatedAndMoved(let device, let from, let to): self = .updatedAndMoved(device, from: from, to: to)
        case .removed(let device, let index): self = .removed(device, at: index)
        }
    }
}
