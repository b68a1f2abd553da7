/// One listed device with the keys the list's order compares (its lower-cased friendly name and
/// its unique id), made once when the device is listed so that finding its place allocates
/// nothing. A class, so that copying a chunk or a shard that holds rows retains one reference a
/// row instead of every field of a device.
final class DeviceRow: Sendable {
    /// The device as listed.
    let device: CastDevice
    /// ``CastDevice/uniqueID``.
    let id: String
    /// The friendly name lower-cased with Unicode's default case mapping.
    let sortName: String

    init(_ device: CastDevice) {
        self.device = device
        id = device.uniqueID
        sortName = device.friendlyName.lowercased()
    }

    /// Whether this row sorts before `other` (the order ``DeviceList/precedes(_:_:)`` states).
    func precedes(_ other: DeviceRow) -> Bool {
        if sortName != other.sortName { return sortName < other.sortName }
        if device.friendlyName != other.device.friendlyName { return device.friendlyName < other.device.friendlyName }
        return id < other.id
    }
}
