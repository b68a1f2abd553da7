extension DiscoveryEvent {
    /// Calls the delegate method (or, for a removal, the two methods) matching the event.
    public func deliver(to delegate: any DiscoveryManagerDelegate, from manager: DiscoveryManager) {
        switch self {
        case .discoveryStarted(let browseTypes):
            delegate.discoveryManager(manager, didStartDiscoveryBrowsing: browseTypes)
        case .hadDiscoveredDevicesWhenStarting:
            delegate.discoveryManagerDidHaveDiscoveredDeviceWhenStartingDiscovery(manager)
        case .discoveryStopped(let reason):
            delegate.discoveryManager(manager, didStopDiscovery: reason)
        case .discoveryFailedToStart(let error):
            delegate.discoveryManager(manager, didFailToStartDiscovery: error)
        case .willUpdateDeviceList:
            delegate.discoveryManagerWillUpdateDeviceList(manager)
        case .didUpdateDeviceList:
            delegate.discoveryManagerDidUpdateDeviceList(manager)
        case .inserted(let device, let index):
            delegate.discoveryManager(manager, didInsert: device, at: index)
        case .updated(let device, let index):
            delegate.discoveryManager(manager, didUpdate: device, at: index)
        case .updatedAndMoved(let device, let from, let to):
            delegate.discoveryManager(manager, didUpdate: device, at: from, andMoveTo: to)
        case .removed(let device, let index):
            delegate.discoveryManager(manager, didRemoveDeviceAt: index)
            delegate.discoveryManager(manager, didRemove: device, at: index)
        case .backendStateChanged(let state):
            delegate.discoveryManager(manager, didChangeBackendState: state)
        case .cacheExhausted(let browseType):
            delegate.discoveryManager(manager, didExhaustCacheFor: browseType)
        case .allForNow(let browseType):
            delegate.discoveryManager(manager, didReceiveAllForNowFor: browseType)
        case .resolveFailed(let key, let error):
            delegate.discoveryManager(manager, didFailToResolve: key, error: error)
        case .backendStatistics(let statistics):
            delegate.discoveryManager(manager, didCount: statistics)
        case .browseSettled(let settlement):
            delegate.discoveryManager(manager, didSettle: settlement)
        case .scanCompleted(let completion):
            delegate.discoveryManager(manager, didCompleteScan: completion)
        case .eventsDropped(let missed):
            delegate.discoveryManager(manager, didMissEvents: missed)
        }
    }
}
