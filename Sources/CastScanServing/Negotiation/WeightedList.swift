/// A header that lists choices with weights (`Accept`, `Accept-Encoding`: RFC 9110, 12.4.2):
/// `gzip;q=0.8, identity;q=0.5, *;q=0`. Bounded: a header longer than ``maximumBytes`` or
/// elements past ``maximumElements`` are not read.
struct WeightedList: Sendable, Hashable {
    /// One element: its value in lower case (`gzip`, `text/plain`) and its weight, 0 to 1.
    struct Element: Sendable, Hashable {
        var value: String
        var weight: Double
    }

    static let maximumBytes = 4096
    static let maximumElements = 64

    /// The elements, in the header's order; those with a weight that does not parse are left out.
    let elements: [Element]

    /// The list in `header`; empty for nil or a header over the bound.
    init(_ header: String?) {
        guard let header, header.utf8.count <= Self.maximumBytes else {
            elements = []
            return
        }
        elements = header.split(separator: ",", omittingEmptySubsequences: true).prefix(Self.maximumElements)
            .compactMap { item in
                let parts = item.split(separator: ";", omittingEmptySubsequences: false).map(Self.trimmed)
                guard let value = parts.first, !value.isEmpty else { return nil }
                var weight = 1.0
                for parameter in parts.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map(Self.trimmed)
                    guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                    guard let parsed = Self.weight(pair[1]) else { return nil }
                    weight = parsed
                }
                return Element(value: value.lowercased(), weight: weight)
            }
    }

    /// The highest weight among elements whose value satisfies `matches`; nil when none does.
    func weight(where matches: (String) -> Bool) -> Double? {
        elements.filter { matches($0.value) }.map(\.weight).max()
    }

    /// A qvalue: `0`, `1`, or up to three decimals (`0.5`, `1.000`).
    private static func weight(_ text: String) -> Double? {
        guard (1...5).contains(text.utf8.count), text.allSatisfy({ $0 == "." || ($0.isASCII && $0.isNumber) }),
            let value = Double(text), (0...1).contains(value)
        else { return nil }
        return value
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
