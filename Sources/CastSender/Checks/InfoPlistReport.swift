/// The result of checking an Info.plist: the findings and the corrected snippet.
///
/// Encodes as `{"findings": [...], "snippet": {...}, "snippetXML": "..."}`.
public struct InfoPlistReport: Sendable, Hashable, Codable {
    /// The findings, most serious first; empty when the Info.plist is right.
    public let findings: [CheckFinding]
    /// The keys as they should be, keeping what was right in the file.
    public let snippet: InfoPlistSnippet

    /// Creates a report.
    public init(findings: [CheckFinding], snippet: InfoPlistSnippet) {
        self.findings = findings
        self.snippet = snippet
    }

    /// The most serious severity found, or `nil` with no findings.
    public var highestSeverity: FindingSeverity? { findings.map(\.severity).max() }

    /// Whether any finding is an error.
    public var hasErrors: Bool { highestSeverity == .error }

    /// The codes of the findings, in order.
    public var codes: [FindingCode] { findings.map(\.code) }

    private enum CodingKeys: String, CodingKey {
        case findings, snippet, snippetXML
    }

    /// Decodes the findings and the snippet; `snippetXML` is ignored (it is derived).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        findings = try container.decode([CheckFinding].self, forKey: .findings)
        snippet = try container.decode(InfoPlistSnippet.self, forKey: .snippet)
    }

    /// Encodes the findings, the snippet and its XML.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(findings, forKey: .findings)
        try container.encode(snippet, forKey: .snippet)
        try container.encode(snippet.xml, forKey: .snippetXML)
    }
}
