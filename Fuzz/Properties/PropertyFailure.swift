/// A property of a parser that did not hold for one input: which target, and what failed.
///
/// The checks throw it instead of trapping, so `swift test` (``FuzzTarget/check(_:)``) reports it
/// as a failed test; the libFuzzer entry (``LibFuzzerEntry``) turns it into a crash whose
/// message starts with `property:`.
public struct PropertyFailure: Error, Sendable, CustomStringConvertible {
    /// The target whose property failed.
    public var target: String
    /// What failed, with the values that show it.
    public var message: String

    public init(target: String, message: String) {
        self.target = target
        self.message = message
    }

    public var description: String { "property: \(target): \(message)" }
}

/// The checks' assertions: each throws a ``PropertyFailure`` naming the target.
struct Property {
    let target: String

    /// Fails with `message` unless `condition` holds.
    func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(PropertyFailure) {
        if !condition { throw PropertyFailure(target: target, message: message()) }
    }

    /// Fails with `message`.
    func fail(_ message: String) -> PropertyFailure {
        PropertyFailure(target: target, message: message)
    }

    /// Fails when `text` holds a raw control character: U+0000–U+001F (but for the scalars in
    /// `allowing`, the line ends the format itself writes), U+007F or U+0080–U+009F.
    func requireNoRawControl(_ text: String, allowing: Set<Unicode.Scalar> = [], in what: @autoclosure () -> String)
        throws(PropertyFailure)
    {
        if let offset = RawControl.firstOffset(in: text, allowing: allowing) {
            throw fail(
                "\(what()) holds a raw control character at scalar \(offset): \(RawControl.escaped(text, around: offset))"
            )
        }
    }

    /// Runs `body`, turning an error that is not of the documented type into a failure.
    func requireTyped<E: Error>(_ error: any Error, _ type: E.Type, in what: String) throws(PropertyFailure) -> E {
        guard let typed = error as? E else {
            throw fail("\(what) threw \(Swift.type(of: error)) (\(error)), not \(E.self)")
        }
        return typed
    }
}

/// The raw control characters a property forbids in text that reaches output.
enum RawControl {
    /// Whether `scalar` is C0 (U+0000–U+001F), DEL or C1 (U+0080–U+009F).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The index (in scalars) of the first raw control character of `text` not in `allowing`.
    static func firstOffset(in text: String, allowing: Set<Unicode.Scalar> = []) -> Int? {
        var offset = 0
        for scalar in text.unicodeScalars {
            if isControl(scalar), !allowing.contains(scalar) { return offset }
            offset += 1
        }
        return nil
    }

    /// Up to 40 scalars either side of `offset`, every scalar outside printable ASCII escaped.
    static func escaped(_ text: String, around offset: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        let range = max(0, offset - 40)..<min(scalars.count, offset + 40)
        return "\"" + scalars[range].map { escape($0) }.joined() + "\""
    }

    /// `bytes` as text for a message: printable ASCII as is, the rest `\xHH`; cut at 200 bytes.
    static func escaped(bytes: some Collection<UInt8>) -> String {
        let shown = bytes.prefix(200).map { byte in
            (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "\\")
                ? String(UnicodeScalar(byte)) : "\\x" + hex(UInt32(byte), 2)
        }.joined()
        return "\"" + shown + (bytes.count > 200 ? "…" : "") + "\""
    }

    static func escape(_ scalar: Unicode.Scalar) -> String {
        if (0x20...0x7E).contains(scalar.value), scalar != "\\" { return String(scalar) }
        return "\\u{" + hex(scalar.value, 1) + "}"
    }

    private static func hex(_ value: UInt32, _ digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
