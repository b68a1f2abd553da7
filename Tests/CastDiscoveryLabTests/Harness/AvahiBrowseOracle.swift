import CastDiscovery
import Foundation

/// What `avahi-browse -rpkt TYPE` reports, merged per instance the way the backend merges:
/// the oracle the backend is compared with.
struct AvahiBrowseOracle {
    struct Instance: Equatable {
        var hostName: String
        var port: UInt16
        var addresses: Set<String>
        var txt: [[UInt8]]
    }

    var instances: [String: Instance] = [:]

    /// Runs avahi-browse in this (the sender) namespace and parses its resolved lines.
    static func browse(_ type: String) throws -> AvahiBrowseOracle {
        try AvahiBrowseOracle(parsing: Lab.run("avahi-browse", ["-rpkt", type]))
    }

    /// Parses `=;iface;proto;name;type;domain;host;address;port;"txt" "txt"` lines.
    init(parsing output: String) throws {
        for line in output.split(separator: "\n") where line.hasPrefix("=;") {
            let fields = Self.splitFields(String(line))
            guard fields.count >= 10, let port = UInt16(fields[8]) else { continue }
            let name = try DNSSDName.unescapeLabel(fields[3])
            var instance = instances[name] ?? Instance(hostName: fields[6], port: port, addresses: [], txt: [])
            instance.addresses.insert(fields[7])
            instance.hostName = fields[6]
            instance.port = port
            instance.txt = try Self.txtStrings(fields[9...].joined(separator: ";"))
            instances[name] = instance
        }
    }

    /// Splits on `;` (avahi-browse escapes `;` inside names as `\059`, so a plain split works).
    private static func splitFields(_ line: String) -> [String] {
        line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
    }

    /// The TXT strings of `"a=1" "b=2"`, with avahi's `\DDD` and `\"` escapes decoded, in the
    /// order avahi-browse prints them (reverse wire order).
    static func txtStrings(_ text: String) throws -> [[UInt8]] {
        var strings: [[UInt8]] = []
        var bytes = Array(text.utf8)[...]
        while let quote = bytes.firstIndex(of: UInt8(ascii: "\"")) {
            bytes = bytes[(quote + 1)...]
            var current: [UInt8] = []
            while let byte = bytes.first {
                bytes = bytes.dropFirst()
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\"), let next = bytes.first {
                    if next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9"), bytes.count >= 3 {
                        let digits = String(decoding: bytes.prefix(3), as: UTF8.self)
                        if let value = UInt8(digits) {
                            current.append(value)
                            bytes = bytes.dropFirst(3)
                            continue
                        }
                    }
                    current.append(next)
                    bytes = bytes.dropFirst()
                    continue
                }
                current.append(byte)
            }
            strings.append(current)
        }
        return strings
    }
}
