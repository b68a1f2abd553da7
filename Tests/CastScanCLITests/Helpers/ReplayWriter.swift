import Foundation

/// Builds replay files (the `--replay` format of docs/library.md, "Replay files") for one test.
struct ReplayWriter {
    /// One device announced by the replay.
    struct Device {
        var instance: String
        var friendlyName: String
        var id: String
        var address: String
        var model = "Chromecast"
        var capabilities = 5
        var extraTXT: [String] = []
        var port = 8009
    }

    var events: [[String: Any]] = [["at": 0.0, "kind": "state", "state": "running"]]

    /// A replay that announces `devices`, then says all-for-now, so a scan completes at once.
    init(devices: [Device], at time: Double = 0.01) {
        for device in devices {
            events.append([
                "at": time, "kind": "found",
                "service": [
                    "instance": device.instance,
                    "host": "\(device.instance).local",
                    "port": device.port,
                    "addresses": [["address": device.address, "interface": "eth0", "interfaceIndex": 2]],
                    "txt": [
                        "id=\(device.id)", "fn=\(device.friendlyName)", "md=\(device.model)",
                        "ca=\(device.capabilities)", "st=0", "ve=05",
                    ] + device.extraTXT,
                    "browseTypes": ["_googlecast._tcp"],
                ] as [String: Any],
            ])
        }
        events.append(["at": time + 0.01, "kind": "allForNow", "browseType": "_googlecast._tcp"])
    }

    /// A replay that announces `count` devices one after another, evenly over `seconds`, then
    /// says all-for-now: a watch of it prints (and with `--report` stores) `count` `inserted`
    /// events at a steady pace.
    static func paced(count: Int, over seconds: Double) -> ReplayWriter {
        var writer = ReplayWriter(devices: [])
        writer.events =
            [writer.events[0]]
            + (0..<count).map { index in
                let device = Device(
                    instance: "Dev-\(index)", friendlyName: "Device \(index)", id: String(format: "%032x", index),
                    address: "10.0.\(index / 250).\(index % 250 + 1)")
                return ReplayWriter(devices: [device], at: 0.01 + seconds * Double(index) / Double(max(1, count)))
                    .events[1]
            }
        writer.events.append(["at": seconds + 0.05, "kind": "allForNow", "browseType": "_googlecast._tcp"])
        return writer
    }

    /// The replay as JSON.
    func data() throws -> Data {
        try JSONSerialization.data(
            withJSONObject: ["version": 1, "events": events] as [String: Any], options: [.prettyPrinted])
    }

    /// Writes the replay to `name` in `directory` and returns its path.
    func write(to directory: TestDirectory, name: String = "replay.json") throws -> String {
        try directory.write(name, try data())
    }

    /// A copy of a recorded replay with every time multiplied by `factor` (to watch it faster).
    static func rescaled(_ path: String, by factor: Double) throws -> Data {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard var root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let events = root["events"] as? [[String: Any]]
        else { throw CocoaError(.fileReadCorruptFile) }
        root["events"] = events.map { event -> [String: Any] in
            var event = event
            if let at = event["at"] as? Double { event["at"] = at * factor }
            return event
        }
        return try JSONSerialization.data(withJSONObject: root)
    }

    /// A replay of one device whose status text changes `count` times, `interval` seconds
    /// apart, after the scan completes: a watch prints one line per change, `count` + 5 in all
    /// (backend chosen, running, inserted, scan complete, the changes, stopped). Many events
    /// fast, for a reader that cannot keep up.
    static func statusChanges(count: Int, interval: Double) -> Data {
        func service(_ index: Int) -> String {
            #"{"instance": "Chromecast-busy", "host": "busy.local", "port": 8009, "#
                + #""addresses": [{"address": "192.168.1.20", "interface": "eth0", "interfaceIndex": 2}], "#
                + #""txt": ["id=busy", "fn=Busy TV", "md=Chromecast", "ca=5", "st=1", "ve=05", "rs=Playing \#(index)"], "#
                + #""browseTypes": ["_googlecast._tcp"]}"#
        }
        var events = [
            #"{"at": 0, "kind": "state", "state": "running"}"#,
            #"{"at": 0.01, "kind": "found", "service": \#(service(0))}"#,
            #"{"at": 0.02, "kind": "allForNow", "browseType": "_googlecast._tcp"}"#,
        ]
        for index in 1...max(1, count) {
            events.append(
                #"{"at": \#(0.03 + Double(index) * interval), "kind": "updated", "service": \#(service(index))}"#)
        }
        return Data(#"{"version": 1, "events": [\#(events.joined(separator: ",\n"))]}"#.utf8)
    }

    /// A replay near the bounds (100,000 events, 10 MB) that a debug build takes seconds to
    /// read: a command busy before it runs, for a signal that must end it anyway. Made once.
    static let slowToRead: Data = {
        var text = #"{"version":1,"events":[{"at":0,"kind":"state","state":"running"}"#
        text.reserveCapacity(10_500_000)
        for index in 0..<99_990 {
            text +=
                #",{"at":1000,"kind":"updated","service":{"instance":"a","host":"a.local","port":8009,"txt":["rs=\#(index)"]}}"#
        }
        return Data((text + "]}").utf8)
    }()
}
