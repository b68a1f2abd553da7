import CastDiscovery

/// A body made of parts, some kept from one answer to the next (the members of a scrape,
/// rendered once per revision of the fleet) and some written for this answer alone, sent as it
/// is or compressed with gzip. A kept part is compressed once, the first time an answer that
/// holds it is; an answer compresses only its own parts.
public struct ResponseBody: Sendable {
    /// One part: text kept between answers, or text of this answer.
    public enum Part: Sendable {
        case kept(KeptText)
        case fresh(String)
    }

    /// The parts, in order.
    public var parts: [Part]

    /// A body of `parts`.
    public init(_ parts: [Part] = []) { self.parts = parts }

    /// The body as text.
    public var text: String { parts.reduce(into: "") { $0 += $1.text } }

    /// The body as it is.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(0) { $0 + $1.text.utf8.count })
        for part in parts { out += part.text.utf8 }
        return out
    }

    /// The body as one gzip member; nil when zlib cannot be loaded or fails.
    public func gzip() -> [UInt8]? {
        var segments: [DeflateSegment] = []
        segments.reserveCapacity(parts.count + 1)
        var fresh = ""
        // Fresh parts next to one another are compressed together.
        func flushFresh(final: Bool) -> Bool {
            guard !fresh.isEmpty || final else { return true }
            guard let segment = DeflateSegment(compressing: Array(fresh.utf8), final: final, level: Self.freshLevel)
            else { return false }
            segments.append(segment)
            fresh = ""
            return true
        }
        for part in parts {
            switch part {
            case .fresh(let text): fresh += text
            case .kept(let kept):
                guard flushFresh(final: false), let segment = kept.segment else { return nil }
                segments.append(segment)
            }
        }
        guard flushFresh(final: true) else { return nil }
        return GzipMember.join(segments)
    }

    /// zlib's level for the parts of one answer (fast: they are compressed every time) and for
    /// kept ones (smallest: once per revision).
    static let freshLevel: Int32 = 1
    static let keptLevel: Int32 = 6
}

extension ResponseBody.Part {
    /// The part's text.
    var text: String {
        switch self {
        case .kept(let kept): kept.text
        case .fresh(let text): text
        }
    }
}

/// Text kept between answers, with its deflate segment made the first time one is asked for.
public final class KeptText: Sendable {
    /// The text.
    public let text: String
    private let compressed = LockedValue<DeflateSegment??>(nil)

    /// Keeps `text`.
    public init(_ text: String) { self.text = text }

    /// The text compressed (not final: more follows); nil when zlib cannot be loaded or fails.
    var segment: DeflateSegment? {
        if let made = compressed.withLock({ $0 }) { return made }
        let made = DeflateSegment(compressing: Array(text.utf8), final: false, level: ResponseBody.keptLevel)
        compressed.withLock { $0 = made }
        return made
    }
}
