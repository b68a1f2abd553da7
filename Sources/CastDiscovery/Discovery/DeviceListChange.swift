/// One change to a sorted device list, with the indices a mirror needs to follow it.
///
/// Applying the changes of a batch in order to a copy of the list, with ``apply(to:)``, gives the
/// list after the batch.
public enum DeviceListChange: Sendable, Hashable {
    /// A device was inserted at an index of the new list.
    case inserted(CastDevice, at: Int)
    /// A device changed and kept its index.
    case updated(CastDevice, at: Int)
    /// A device changed and its sort position changed: it left index `from`, then was inserted at
    /// index `to` of the list without it (which is its index in the new list).
    case updatedAndMoved(CastDevice, from: Int, to: Int)
    /// The device at an index was removed; carries the device as it was last listed.
    case removed(CastDevice, at: Int)

    /// The device the change is about (the new value, or the removed one).
    public var device: CastDevice {
        switch self {
        case .inserted(let device, _), .updated(let device, _), .updatedAndMoved(let device, _, _),
            .removed(let device, _):
            device
        }
    }

    /// Applies the change to a mirror of the list. The mirror must hold the list as it was
    /// before the change; indices out of range leave the mirror unchanged.
    public func apply(to list: inout [CastDevice]) {
        switch self {
        case .inserted(let device, let index):
            guard (0...list.count).contains(index) else { return }
            list.insert(device, at: index)
        case .updated(let device, let index):
            guard list.indices.contains(index) else { return }
            list[index] = device
        case .updatedAndMoved(let device, let from, let to):
            guard list.indices.contains(from), (0..<list.count).contains(to) else { return }
            list.remove(at: from)
            list.insert(device, at: to)
        case .removed(_, let index):
            guard list.indices.contains(index) else { return }
            list.remove(at: index)
        }
    }
}
