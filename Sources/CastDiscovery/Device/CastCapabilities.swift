/// What a receiver can do: the `ca` TXT bitmask, the same bits as the SDK's
/// `GCKDeviceCapabilities`. Bits with no public meaning are kept, never dropped.
public struct CastCapabilities: OptionSet, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 0: video out.
    public static let videoOut = Self(rawValue: 1 << 0)
    /// Bit 1: video in.
    public static let videoIn = Self(rawValue: 1 << 1)
    /// Bit 2: audio out.
    public static let audioOut = Self(rawValue: 1 << 2)
    /// Bit 3: audio in.
    public static let audioIn = Self(rawValue: 1 << 3)
    /// Bit 4: developer mode (receiver side only).
    public static let devMode = Self(rawValue: 1 << 4)
    /// Bit 5: a multizone (speaker) group.
    public static let multizoneGroup = Self(rawValue: 1 << 5)
    /// Bit 6: a dynamic group.
    public static let dynamicGroup = Self(rawValue: 1 << 6)
    /// Bit 7: a multichannel group.
    public static let multichannelGroup = Self(rawValue: 1 << 7)
    /// Bit 8: a member of a multichannel group.
    public static let multichannelMember = Self(rawValue: 1 << 8)
    /// Bit 11: master or fixed volume.
    public static let masterOrFixedVolume = Self(rawValue: 1 << 11)
    /// Bit 12: attenuation or fixed volume.
    public static let attenuationOrFixedVolume = Self(rawValue: 1 << 12)
    /// Bit 16: can take part in dynamic groups.
    public static let dynamicGroupingSupported = Self(rawValue: 1 << 16)

    /// Every documented bit with its name, lowest bit first.
    public static let named: [(name: String, capability: CastCapabilities)] = [
        ("videoOut", .videoOut), ("videoIn", .videoIn), ("audioOut", .audioOut), ("audioIn", .audioIn),
        ("devMode", .devMode), ("multizoneGroup", .multizoneGroup), ("dynamicGroup", .dynamicGroup),
        ("multichannelGroup", .multichannelGroup), ("multichannelMember", .multichannelMember),
        ("masterOrFixedVolume", .masterOrFixedVolume), ("attenuationOrFixedVolume", .attenuationOrFixedVolume),
        ("dynamicGroupingSupported", .dynamicGroupingSupported),
    ]

    /// The union of every documented bit.
    public static let documented: CastCapabilities = named.reduce(into: []) { $0.formUnion($1.capability) }

    /// The bits set here that have no public meaning (bits 9, 17 and 18 on real devices).
    public var unknownBits: CastCapabilities { subtracting(Self.documented) }

    /// The names of the documented bits set here, lowest bit first.
    public var names: [String] { Self.named.filter { contains($0.capability) }.map(\.name) }

    /// Whether every bit of `capabilities` is set (the SDK's `hasCapabilities`).
    public func has(_ capabilities: CastCapabilities) -> Bool { isSuperset(of: capabilities) }

    /// The names of the documented bits set here, then the unknown bits as `bitN`.
    public var allNames: [String] {
        let unknown = unknownBits.rawValue
        return names + (0..<64).filter { unknown & (1 << UInt64($0)) != 0 }.map { "bit\($0)" }
    }

    /// ``allNames`` joined by `,`, or `none`.
    public var description: String {
        allNames.isEmpty ? "none" : allNames.joined(separator: ",")
    }
}
