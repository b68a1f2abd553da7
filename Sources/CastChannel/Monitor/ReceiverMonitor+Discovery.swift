import CastDiscovery

extension ReceiverMonitor {
    /// Keeps the watched devices those of a discovery list: a device listed or changed is
    /// watched (at its address now), a device removed is forgotten; after missed events
    /// (`DiscoveryEvent.eventsDropped(_:)`) the watched devices become those then listed.
    /// Other events change nothing.
    public func follow(_ event: DiscoveryEvent) {
        switch event {
        case .inserted(let device, _), .updated(let device, _), .updatedAndMoved(let device, _, _):
            watch(device)
        case .removed(let device, _):
            forget(device.uniqueID)
        case .eventsDropped(let missed):
            keep(only: missed.devices)
        default:
            break
        }
    }
}
