import Foundation

/// Builds replay files (the `--replay` format of the README) for one test.
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
                    "port": 8009,
                    "addresses": [["address": device.address, "interface": "eth0", "interfaceIndex": 2]],
                    "txt": ["id=\(device.id)", "fn=\(device.friendlyName)", "md=\(device.model)",
                            "ca=\(device.capabilities)", "st=0", "ve=05"] + device.extraTXT,
                    "browseTypes": ["_googlecast._tcp"],
                ] as [String: Any],
            ])
        }
        events.append(["at": time + 0.01, "kind": "allForNow", "browseType": "_googlecast._tcp"])
    }

    /// The replay as JSON.
    func data() throws -> Data {
        try JSONSerialization.data(withJSONObject: ["version": 1, "events": events] as [String: Any], options: [.prettyPrinted])
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
}
