import Synchronization

/// Discovers Cast devices through a backend and keeps them in a sorted list, with the semantics
/// of the Google Cast SDK's `GCKDiscoveryManager`.
///
/// The list holds one device per Cast id, filtered by the criteria and sorted by friendly name
/// (see ``DeviceList``). Every change is announced through ``events()`` and the weakly held
/// ``delegate``, in order, and every event carries what a consumer needs (the device and its
/// indices, the list at a scan's completion), so nothing has to be read back from the manager.
///
/// The state has one owner, the manager's loop: ``startDiscovery()``, ``stopDiscovery()`` and
/// ``find(uniqueID:timeout:)`` hand it requests, which it takes in order with the backend's
/// events. The getters (``deviceCount``, ``devices``, ``discoveryState``...) show the state as of
/// the last batch of events the loop published, so they are safe from any thread and never wait
/// on the backend; after ``startDiscovery()``, ``DiscoveryEvent/discoveryStarted(browseTypes:)``
/// says when discovery runs. The delegate is called from the loop, one call at a time, after the
/// batch it belongs to is published.
///
/// Nothing waits without bound. The loop takes the backend's events from the buffer they wait
/// in (``BackendEventBuffer``, which folds and never drops), each source of a
/// ``MergedBackend`` merged by the loop itself.
/// Requests are never dropped (a repeated start or stop is not queued). Each subscriber's events
/// are bounded (see ``events()``): one that falls ``subscriberCapacity`` behind gets
/// ``DiscoveryEvent/eventsDropped(_:)`` with the list instead, counted in ``missedEvents``.
///
/// ``passiveScan`` is handed to the backend at each start: the mDNS backend listens more and
/// asks less; avahi-daemon and a replay ignore it.
///
/// Devices stay listed when discovery stops. When it starts again with devices listed,
/// ``DiscoveryEvent/hadDiscoveredDevicesWhenStarting(count:)`` is sent before any scan result;
/// those devices stay until the new scan's first all-for-now of `_googlecast._tcp`, which removes
/// the ones not seen again.
public final class DiscoveryManager: Sendable {
    /// The source of browse results.
    public let backend: any DiscoveryBackend
    /// What the manager looks for.
    public let criteria: DiscoveryCriteria
    /// Which addresses the manager shows (one interface, some families); a device with none
    /// left is not listed, and every index an event carries is an index of the filtered list.
    public let filter: DeviceFilter
    /// What the manager keeps time with: the scan's quiet rounds, the finds' and scans'
    /// time-outs.
    public let clock: any DiscoveryClock

    private let inputs = WaitableQueue(DiscoveryInbox())
    private let outlet = DiscoveryOutlet(subscriberCapacity: DiscoveryManager.subscriberCapacity)
    private let findTokens = Atomic(0)

    /// Creates a stopped manager over `backend` looking for devices matching `criteria`, with
    /// the addresses `filter` keeps, keeping time with `clock` (a ``ManualClock`` in tests).
    public init(
        backend: any DiscoveryBackend, criteria: DiscoveryCriteria = .all, filter: DeviceFilter = .none,
        clock: any DiscoveryClock = ContinuousClock()
    ) {
        self.backend = backend
        self.criteria = criteria
        self.filter = filter
        self.clock = clock
        let inputs = self.inputs
        let loop = DiscoveryLoop(
            backend: backend, criteria: criteria, filter: filter, clock: clock, inputs: inputs, outlet: outlet,
            manager: self)
        Task { await DiscoveryLoop.run(loop, inputs: inputs) }
    }

    deinit {
        inputs.finish()
    }

    // MARK: - State

    /// The receiver of the manager's events; held weakly.
    public var delegate: (any DiscoveryManagerDelegate)? {
        get { outlet.delegate }
        set { outlet.delegate = newValue }
    }

    /// Whether discovery was started and has not stopped.
    public var discoveryState: DiscoveryState { outlet.snapshot.discoveryState }

    /// Whether discovery is running and its backend is browsing now (false while the backend is
    /// connecting or has lost its daemon).
    public var discoveryActive: Bool {
        let snapshot = outlet.snapshot
        return snapshot.discoveryState == .running && snapshot.backendState == .running
    }

    /// The backend's last reported state in the current or last run; nil before any.
    public var backendState: BackendState? { outlet.snapshot.backendState }

    /// Whether the next start asks the backend for a passive scan (listen more, query less).
    public var passiveScan: Bool {
        get { outlet.passiveScan }
        set { outlet.passiveScan = newValue }
    }

    /// Whether the current (or last) run's scan has completed (see ``ScanProgress``).
    public var isScanComplete: Bool { outlet.snapshot.isScanComplete }

    /// Whether at least one device is listed.
    public var hasDiscoveredDevices: Bool { !outlet.snapshot.list.isEmpty }

    /// The number of listed devices.
    public var deviceCount: Int { outlet.snapshot.list.count }

    /// The listed devices, in order (a new array; ``list`` costs nothing).
    public var devices: [CastDevice] { outlet.snapshot.list.devices }

    /// The list as of the last published batch of events, with its generation.
    public var list: DeviceListSnapshot { outlet.snapshot.list }

    /// The device at `index` of the list; nil when out of range.
    public func device(at index: Int) -> CastDevice? {
        outlet.snapshot.list.device(at: index)
    }

    /// The listed device with `uniqueID` (`googlecast:<id>`, id in any form ``CastDeviceID``
    /// accepts, prefix optional).
    public func device(withUniqueID uniqueID: String) -> CastDevice? {
        outlet.snapshot.list.device(withUniqueID: uniqueID)
    }

    /// How many events the manager's subscribers missed so far because they fell behind, all of
    /// them together (each was told with ``DiscoveryEvent/eventsDropped(_:)``).
    public var missedEvents: Int { outlet.missedEvents }

    /// How many events wait for each subscriber, in no particular order.
    var waitingEvents: [Int] { outlet.waitingEvents }

    /// The unique id a find is waiting for, if one is.
    var pendingFindID: String? { outlet.snapshot.pendingFindID }

    // MARK: - Events

    /// How many events wait for one subscriber (``events()``, ``subscribe()``) before it counts as
    /// too slow: 8,192, 16 for each of 500 devices. A start-up of 500 devices through the querier
    /// beside avahi-daemon publishes 3,006 events, 6 a device (each device inserted, then updated
    /// with its second address, three events each): a consumer that has not read at all during
    /// such a start-up still gets every event. An event holds at most one device (about 2 KB), so
    /// a subscriber that stopped reading holds about 16 MB at most.
    public static let subscriberCapacity = 8192

    /// The events from now on, in order, until the manager goes away.
    ///
    /// Bounded: a consumer that lets ``subscriberCapacity`` events wait unread misses them. They
    /// are replaced by one ``DiscoveryEvent/eventsDropped(_:)`` saying how many and carrying the
    /// list and state they left; the events after it follow on from that state. A consumer that
    /// stays behind keeps that one event waiting, with the newest state, so its memory stays
    /// bounded. The delegate is never behind: it gets every event.
    public func events() -> AsyncStream<DiscoveryEvent> {
        subscribe().events
    }

    /// The list now and the events that follow it, each with the list's generation after it,
    /// taken atomically (bounded as ``events()`` is). A mirror starts from `list`, applies each
    /// list change whose generation is one more than its own, and starts again from the devices
    /// of an ``DiscoveryEvent/eventsDropped(_:)`` (``MissedEvents/generation``) or, on any other
    /// gap, from ``list``.
    public func subscribeWithGenerations() -> (list: DeviceListSnapshot, events: AsyncStream<NumberedDiscoveryEvent>) {
        let (snapshot, events) = outlet.subscribe { $0 }
        return (snapshot.list, events)
    }

    /// The list now and the events that follow it, taken atomically: applying the list changes
    /// of `events` to `devices` keeps a mirror equal to the manager's list, and so does setting
    /// the mirror to the devices of an ``DiscoveryEvent/eventsDropped(_:)`` (bounded as
    /// ``events()`` is).
    public func subscribe() -> (devices: [CastDevice], events: AsyncStream<DiscoveryEvent>) {
        let (snapshot, events) = outlet.subscribe { $0.event }
        return (snapshot.list.devices, events)
    }

    /// The published state and the events that follow it.
    func subscribeWithState() -> (snapshot: DiscoveryOutlet.Snapshot, events: AsyncStream<DiscoveryEvent>) {
        outlet.subscribe { $0.event }
    }

    // MARK: - Start and stop

    /// Asks for discovery to start unless it runs. The manager then sends
    /// ``DiscoveryEvent/discoveryStarted(browseTypes:)`` (and
    /// ``DiscoveryEvent/hadDiscoveredDevicesWhenStarting(count:)`` when devices from the last run
    /// are listed), or ``DiscoveryEvent/discoveryFailedToStart(_:)``.
    public func startDiscovery() {
        inputs.post(.start)
    }

    /// Asks for discovery to stop if it runs; the manager then sends
    /// ``DiscoveryEvent/discoveryStopped(_:)``. Listed devices stay listed.
    public func stopDiscovery() {
        inputs.post(.stop)
    }

    // MARK: - Find

    /// Waits for the device with `uniqueID` (in the forms ``device(withUniqueID:)`` accepts) to
    /// be listed, for at most `timeout`.
    ///
    /// Returns the device at once when it is already listed; nil on timeout, when the calling
    /// task is cancelled, or when a newer find replaces this one (one find at a time). It does
    /// not start discovery.
    public func find(uniqueID: String, timeout: Duration) async -> CastDevice? {
        let id = DeviceList.normalizedUniqueID(uniqueID)
        let token = findTokens.add(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CastDevice?, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: nil)
                } else {
                    inputs.post(.find(token: token, uniqueID: id, timeout: timeout, continuation))
                }
            }
        } onCancel: {
            inputs.post(.findEnded(token: token))
        }
    }
}
