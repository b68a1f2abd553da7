/// The listed devices by unique id, in a fixed number of shards that copies share copy-on-write
/// one by one.
///
/// A copy (a snapshot) costs nothing. The first write after one copies the shard it changes
/// (about `count / 64` entries) and the table of 64 shard references, never the whole map. It
/// maps ids to rows, not to positions, so an insertion or removal elsewhere in the list changes
/// nothing in it.
struct DeviceIndex: Sendable {
    private static let shardCount = 64

    private var shards = [[String: DeviceRow]](repeating: [:], count: DeviceIndex.shardCount)

    /// The row listed under `id` (a normalized unique id).
    subscript(id: String) -> DeviceRow? {
        get { shards[Self.shard(of: id)][id] }
        set { shards[Self.shard(of: id)][id] = newValue }
    }

    private static func shard(of id: String) -> Int {
        Int(UInt(bitPattern: id.hashValue) % UInt(shardCount))
    }
}
