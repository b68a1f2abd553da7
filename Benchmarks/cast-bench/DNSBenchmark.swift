import CastDiscovery
import Foundation

/// `cast-bench dns PACKETS-FILE [--count N]`: decodes mDNS messages with `DNSMessage`.
///
/// PACKETS-FILE holds one packet a line, in hex (the captured Cast answers: a PTR with SRV,
/// TXT, A and AAAA in the additional section). Each of N iterations decodes the next packet
/// (round robin) and touches every record, as the querier does. Prints one JSON object:
/// packets, records, seconds, packetsPerSecond.
enum DNSBenchmark {
    static func run(_ arguments: [String]) -> Never {
        var arguments = arguments
        var count = 200_000
        if let text = takeOption("--count", from: &arguments) {
            guard let n = Int(text), n > 0 else { fail("--count wants a positive number") }
            count = n
        }
        guard arguments.count == 1 else { fail("usage: cast-bench dns PACKETS-FILE [--count N]") }
        guard let text = try? String(contentsOfFile: arguments[0], encoding: .utf8) else {
            fail("cannot read \(arguments[0])")
        }
        let packets = text.split(separator: "\n").filter { !$0.isEmpty }.map { line -> [UInt8] in
            guard let bytes = hexBytes(line) else { fail("bad line: \(line.prefix(80))") }
            return bytes
        }
        guard !packets.isEmpty else { fail("no packets in \(arguments[0])") }
        _ = decode(min(count, 10_000), packets)  // warm-up
        let clock = ContinuousClock()
        var records = 0
        let elapsed = clock.measure { records = decode(count, packets) }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let result: [String: Any] = [
            "packets": count, "records": records, "seconds": seconds, "packetsPerSecond": Double(count) / seconds,
            "distinctPackets": packets.count,
        ]
        let json = (try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])) ?? Data()
        print(String(decoding: json, as: UTF8.self))
        exit(0)
    }

    /// Decodes `n` packets; returns the number of records read so the work cannot be dropped.
    static func decode(_ n: Int, _ packets: [[UInt8]]) -> Int {
        var records = 0
        for i in 0..<n {
            guard let message = try? DNSMessage(decoding: packets[i % packets.count]) else {
                fail("packet \(i % packets.count) does not decode")
            }
            records &+= message.answers.count &+ message.additionals.count
            for record in message.additionals { records &+= Int(record.ttl & 1) }
        }
        return records
    }
}
