import CastDiscovery

/// What one `NSBonjourServices` string is, as far as Cast is concerned.
enum BonjourServiceEntry: Hashable {
    /// Exactly `_googlecast._tcp`.
    case googleCast
    /// `_<ID>._googlecast._tcp` with an upper-case hex ID.
    case application(ApplicationID)
    /// `_<X>._sub._googlecast._tcp`; `corrected` is the entry without `_sub` (hex IDs upper-cased).
    case withSubtypeLabel(corrected: String, applicationID: ApplicationID?)
    /// `_<id>._googlecast._tcp` with lower-case hex letters; `corrected` is upper-cased.
    case lowercaseApplicationID(corrected: String, applicationID: ApplicationID)
    /// Any other well-formed service type (another protocol, or a Cast form not listed above).
    case other
    /// Not a DNS-SD service type (`_name._tcp` / `_name._udp`, labels of letters, digits and
    /// hyphens), or holding control or invisible characters.
    case malformed

    init(_ entry: String) {
        let labels = entry.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy(Self.isServiceLabel),
            let last = labels.last, ["_tcp", "_udp"].contains(last.lowercased())
        else {
            self = .malformed
            return
        }
        let isCast = labels.suffix(2).map { $0.lowercased() } == ["_googlecast", "_tcp"]
        guard isCast else {
            self = .other
            return
        }
        let castLabels = labels.suffix(2).joined(separator: ".")
        switch labels.count {
        case 2:
            self = castLabels == DiscoveryCriteria.serviceType ? .googleCast : .other
        case 3:
            let name = labels[0].dropFirst()
            guard let id = try? ApplicationID(String(name)) else {
                self = .other
                return
            }
            if id.rawValue == String(name) {
                self = .application(id)
            } else {
                self = .lowercaseApplicationID(
                    corrected: "\(id.subtypeLabel).\(castLabels)", applicationID: id)
            }
        case 4 where labels[1].lowercased() == "_sub":
            let name = String(labels[0].dropFirst())
            let id = try? ApplicationID(name)
            self = .withSubtypeLabel(
                corrected: "_\(id?.rawValue ?? name).\(castLabels)", applicationID: id)
        default:
            self = .other
        }
    }

    /// `_` followed by 1 to 63 ASCII letters, digits or hyphens.
    private static func isServiceLabel(_ label: Substring) -> Bool {
        guard label.utf8.count >= 2, label.utf8.count <= 64, label.first == "_" else {
            return false
        }
        return label.utf8.dropFirst().allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
