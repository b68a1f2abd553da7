/// A ``DeviceList`` as it was at one generation: what a ``DiscoveryManager`` publishes with
/// each batch of events.
///
/// Taking one costs nothing and the list's next write copies a few dozen devices at most, not
/// the list (see ``DeviceList``). Reading ``devices`` builds an array of every device.
public struct DeviceListSnapshot: Sendable {
    /// The list's generation: how many changes it had made when the snapshot was taken.
    public let generation: Int
    let rows: DeviceRows
    let index: DeviceIndex

    /// An empty list at generation 0.
    public init() {
        self.init(generation: 0, rows: DeviceRows(), index: DeviceIndex())
    }

    init(generation: Int, rows: DeviceRows, index: DeviceIndex) {
        self.generation = generation
        self.rows = rows
        self.index = index
    }

    /// The number of listed devices.
    public var count: Int { rows.count }

    /// Whether no device is listed.
    public var isEmpty: Bool { rows.count == 0 }

    /// The listed devices, in order (a new array).
    public var devices: [CastDevice] { rows.devices }

    /// The device at `index`; nil when out of range.
    public func device(at index: Int) -> CastDevice? {
        rows.row(at: index)?.device
    }

    /// The listed device with `uniqueID`, in the forms ``DeviceList/device(withUniqueID:)``
    /// accepts.
    public func device(withUniqueID uniqueID: String) -> CastDevice? {
        index[DeviceList.normalizedUniqueID(uniqueID)]?.device
    }
}
