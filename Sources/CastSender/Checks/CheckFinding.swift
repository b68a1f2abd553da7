/// One result of an Info.plist or SDK check: what is wrong (or worth knowing) and how to fix it.
///
/// ``message`` and ``fix`` are sentences for a developer; any value taken from the checked
/// file appears in them quoted, with control and invisible characters escaped, so printing them
/// is safe. A finding encodes as
/// `{"code": "...", "severity": "...", "message": "...", "fix": "..."}`.
public struct CheckFinding: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stable machine code.
    public let code: FindingCode
    /// How serious the finding is; always `code.severity`.
    public let severity: FindingSeverity
    /// What was found, as a sentence.
    public let message: String
    /// What to do about it, as a sentence.
    public let fix: String

    /// Creates a finding; its severity is the code's.
    public init(_ code: FindingCode, message: String, fix: String) {
        self.code = code
        self.severity = code.severity
        self.message = message
        self.fix = fix
    }

    private enum CodingKeys: String, CodingKey {
        case code, severity, message, fix
    }

    /// Decodes a finding; the severity is taken from the code, whatever the input says.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(FindingCode.self, forKey: .code),
            message: try container.decode(String.self, forKey: .message),
            fix: try container.decode(String.self, forKey: .fix))
    }

    /// `severity [code] message Fix: fix`, on one line.
    public var description: String {
        "\(severity) [\(code)] \(message) Fix: \(fix)"
    }
}
