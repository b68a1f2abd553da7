// cast-bench: how fast the core decodes what the network sends.
//
//   cast-bench RECORDS-FILE [--count N]          TXT records into Cast devices
//   cast-bench dns PACKETS-FILE [--count N]      whole mDNS messages (DNSMessage)
//   cast-bench list [--sizes 50,500,5000] [--count N] [--out FILE]
//                                                one DeviceList change and a snapshot (time, allocations)
//   cast-bench auth FIXTURES-DIR [--seconds S]    device-authentication verdicts a second
//
// RECORDS-FILE holds one record a line: `INSTANCE<TAB>HOST<TAB>PORT<TAB>WIREHEX` (the TXT rdata as a
// resolver hands it over, in hex). Each of N iterations takes the next record (round robin),
// decodes it with `TXTRecord(wireFormat:)` and builds the device with `CastDevice(service:)`
// (lenient policy), as the discovery manager does for every resolved service. Prints one JSON
// object: records, seconds, recordsPerSecond, and txtOnly: the same for `TXTRecord(wireFormat:)`
// reading fn, md and id. Build it with `-c release`.
import CastDiscovery
import Foundation

struct Record {
    var instance: String
    var host: String
    var port: UInt16
    var wire: [UInt8]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("cast-bench: \(message)\n".utf8))
    exit(64)
}

/// Takes `name` and the value after it out of `arguments`; nil when `name` is not there.
func takeOption(_ name: String, from arguments: inout [String]) -> String? {
    guard let i = arguments.firstIndex(of: name) else { return nil }
    guard i + 1 < arguments.count else { fail("\(name) wants a value") }
    defer { arguments.removeSubrange(i...(i + 1)) }
    return arguments[i + 1]
}

func hexBytes(_ text: Substring) -> [UInt8]? {
    guard text.utf8.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count / 2)
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
        out.append(byte)
        index = next
    }
    return out
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "dns" {
    DNSBenchmark.run(Array(arguments.dropFirst()))
}
if arguments.first == "list" {
    ListBenchmark.run(Array(arguments.dropFirst()))
}
if arguments.first == "auth" {
    DeviceAuthBenchmark.run(Array(arguments.dropFirst()))
}
var count = 200_000
if let text = takeOption("--count", from: &arguments) {
    guard let n = Int(text), n > 0 else { fail("--count wants a positive number") }
    count = n
}
guard arguments.count == 1 else { fail("usage: cast-bench RECORDS-FILE [--count N]") }
guard let text = try? String(contentsOfFile: arguments[0], encoding: .utf8) else { fail("cannot read \(arguments[0])") }

var records: [Record] = []
for line in text.split(separator: "\n") where !line.isEmpty {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count == 4, let port = UInt16(fields[2]), let wire = hexBytes(fields[3]) else {
        fail("bad line: \(line.prefix(80))")
    }
    records.append(Record(instance: String(fields[0]), host: String(fields[1]), port: port, wire: wire))
}
guard !records.isEmpty else { fail("no records in \(arguments[0])") }
let addresses = [ServiceAddress(IPv4Address(10, 213, 1, 1), interfaceName: "lab0", interfaceIndex: 2)]

/// Decodes `n` records; returns a checksum so the work cannot be optimised away.
func decode(_ n: Int, _ records: [Record], _ addresses: [ServiceAddress]) -> Int {
    var checksum = 0
    for i in 0..<n {
        let record = records[i % records.count]
        let service = ResolvedService(
            instanceName: record.instance, hostName: record.host, port: record.port,
            addresses: addresses, txt: TXTRecord(wireFormat: record.wire))
        if let device = try? CastDevice(service: service) {
            checksum &+=
                device.friendlyName.utf8.count &+ Int(truncatingIfNeeded: device.capabilities.rawValue)
                &+ device.problems.count
        }
    }
    return checksum
}

/// Decodes only the TXT records of `n` records and reads the fn, md and id values.
func decodeTXT(_ n: Int, _ records: [Record]) -> Int {
    var checksum = 0
    for i in 0..<n {
        let txt = TXTRecord(wireFormat: records[i % records.count].wire)
        checksum &+= txt.entries.count
        for key in ["fn", "md", "id"] { checksum &+= txt.string(forKey: key)?.utf8.count ?? 0 }
    }
    return checksum
}

func measure(_ count: Int, _ body: () -> Int) -> [String: Any] {
    let clock = ContinuousClock()
    var checksum = 0
    let elapsed = clock.measure { checksum = body() }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return ["records": count, "seconds": seconds, "recordsPerSecond": Double(count) / seconds, "checksum": checksum]
}

_ = decode(min(count, 10_000), records, addresses)  // warm-up
var result = measure(count) { decode(count, records, addresses) }
_ = decodeTXT(min(count, 10_000), records)
result["txtOnly"] = measure(count) { decodeTXT(count, records) }
result["distinctRecords"] = records.count
let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
