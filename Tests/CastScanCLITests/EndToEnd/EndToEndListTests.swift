@testable import CastScanCLI
import Foundation
import Testing

/// `cast-scan` (the list command) run as a process on the recorded living-room network.
///
/// The replay is played as fast as possible and the list is the one at scan completion (the
/// first all-for-now, 1.0 s into the recording): Dev Emulator, Downstairs (still led by the Nest
/// Mini), Kitchen speaker (not yet renamed) and Living Room TV (idle, not yet casting YouTube).
@Suite("cast-scan list, end to end")
struct EndToEndListTests {
    static let sortedNames = ["Dev Emulator", "Downstairs", "Kitchen speaker", "Living Room TV"]

    /// Runs the list command on the living-room replay with a private state file.
    static func list(_ extra: [String], replay: String = FixturePaths.livingRoom) async throws -> (
        ProcessResult, TestDirectory
    ) {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.run(
            ["--replay", replay, "--state", directory.path("state.json")] + extra)
        return (result, directory)
    }

    @Test("the table lists every device sorted by name, columns aligned, cells as recorded")
    func table() async throws {
        let (result, _) = try await Self.list([])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let table = try #require(TableLayout(output: result.stdout), "\(result)")
        #expect(table.columnNames == ["NAME", "KIND", "MODEL", "ADDRESS", "STATUS", "CAPABILITIES", "ID"])
        #expect(table.rows.count == 4, "\(result)")
        for line in [table.header] + table.rows {
            #expect(table.alignmentProblems(of: line).isEmpty, "\(line): \(table.alignmentProblems(of: line))")
        }
        let cells = table.rowCells
        #expect(cells.map { $0["NAME"] } == Self.sortedNames)

        let tv = try #require(cells.first { $0["NAME"] == "Living Room TV" })
        #expect(tv["KIND"] == "video")
        #expect(tv["MODEL"] == "Chromecast")
        #expect(tv["ADDRESS"] == "192.168.1.20:8009 +1")
        #expect(tv["STATUS"] == "idle")
        #expect(tv["ID"] == "406c2bcdd5995755059b5bb045326056")

        let group = try #require(cells.first { $0["NAME"] == "Downstairs" })
        #expect(group["KIND"] == "group")
        #expect(group["MODEL"] == "Google Cast Group")
        #expect(group["ADDRESS"] == "192.168.1.31:32187")
        #expect(group["STATUS"] == "busy: Spotify")
        #expect(group["ID"] == "3F2B7C9A-1D4E-4B8F-9A6C-2E5D8F1B3C7A")
        // Capabilities are cut to the column's 40 columns with an ellipsis.
        let capabilities = try #require(group["CAPABILITIES"])
        #expect(capabilities.hasPrefix("audioOut,multizoneGroup,"))
        #expect(capabilities.hasSuffix("…"))
        #expect(DisplayWidth.width(of: capabilities) == 40)

        let emulator = try #require(cells.first { $0["NAME"] == "Dev Emulator" })
        #expect(emulator["CAPABILITIES"] == "videoOut,audioOut")
        #expect(emulator["ID"] == "0a1b2c3d4e5f")

        // A Linux sender sees every device; the summary says so.
        #expect(result.stdoutLines.first?.hasPrefix("Sender: Linux, Cast SDK 4.8.3") == true)
        #expect(result.stdoutLines.last?.hasPrefix("4 devices (scan complete in ") == true, "\(result)")
    }

    @Test("the list is the one at scan completion, whatever the machine's load")
    func deterministicList() async throws {
        // Six runs at once load the machine; every one must print the same list.
        let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
            for _ in 0..<6 {
                group.addTask { try await Self.list([]).0 }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results {
            let names = TableLayout(output: result.stdout)?.rowCells.map { $0["NAME"] ?? "" }
            #expect(names == Self.sortedNames, "\(result)")
        }
    }

    @Test("--json prints schema version 1 with every device field, the scan and the sender")
    func json() async throws {
        let (result, directory) = try await Self.list(["--json"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let root = try #require(
            try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result)")
        #expect(root["schemaVersion"] as? Int == 1)
        #expect(root["tool"] as? String == "cast-scan")
        #expect(root["visibleDeviceCount"] as? Int == 4)
        #expect(root["problemCount"] as? Int == 0)

        let scan = try #require(root["scan"] as? [String: Any])
        #expect(scan["complete"] as? Bool == true)
        #expect(scan["backend"] as? String == "replay")
        #expect(scan["browseTypes"] as? [String] == ["_googlecast._tcp"])
        #expect(scan["timeoutSeconds"] as? Double == 5)
        #expect((scan["elapsedSeconds"] as? Double).map { $0 >= 0 && $0 < 5 } == true)
        #expect(scan["resolveFailures"] as? [String] == [])

        let sender = try #require(root["sender"] as? [String: Any])
        #expect(sender["platform"] as? String == "Linux")
        #expect(sender["sdkVersion"] as? String == "4.8.3")
        #expect(sender["disableDiscoveryAutostart"] as? Bool == false)
        #expect(sender["startDiscoveryAfterFirstTapOnCastButton"] as? Bool == true)
        #expect(sender["stateFile"] as? String == directory.path("state.json"))
        #expect(sender["warnings"] as? [String] == [])
        let step = try #require(sender["step"] as? [String: Any])
        #expect(step["discoveryRunning"] as? Bool == true)
        #expect((step["visibleDevices"] as? [Any])?.count == 4)

        let devices = try #require(root["devices"] as? [[String: Any]])
        #expect(devices.compactMap { $0["friendlyName"] as? String } == Self.sortedNames)
        let required = [
            "uniqueID", "deviceID", "friendlyName", "modelName", "kind", "status", "capabilities",
            "capabilityNames", "protocolVersion", "instanceName", "hostName", "port", "addresses", "txt", "problems",
        ]
        for device in devices {
            let missing = required.filter { device[$0] == nil }
            #expect(missing.isEmpty, "\(device["friendlyName"] ?? "?") lacks \(missing)")
        }

        let tv = try #require(devices.first { $0["friendlyName"] as? String == "Living Room TV" })
        #expect(tv["uniqueID"] as? String == "googlecast:406c2bcdd5995755059b5bb045326056")
        #expect(tv["deviceID"] as? String == "406c2bcdd5995755059b5bb045326056")
        #expect(tv["modelName"] as? String == "Chromecast")
        #expect(tv["kind"] as? String == "video")
        #expect(tv["status"] as? String == "idle")
        #expect(tv["capabilities"] as? Int == 200709)
        #expect((tv["capabilityNames"] as? [String])?.prefix(2) == ["videoOut", "audioOut"])
        #expect(tv["protocolVersion"] as? Int == 5)
        #expect(tv["iconPath"] as? String == "/setup/icon.png")
        #expect(tv["instanceName"] as? String == "Chromecast-406c2bcdd5995755059b5bb045326056")
        #expect(tv["hostName"] as? String == "406c2bcd-d599-5755-059b-5bb045326056.local")
        #expect(tv["port"] as? Int == 8009)
        let addresses = try #require(tv["addresses"] as? [[String: Any]])
        #expect(
            addresses.compactMap { $0["address"] as? String } == ["192.168.1.20", "fe80::a6b1:c1ff:fe2d:1001%eth0"])
        #expect(addresses.compactMap { $0["family"] as? String } == ["ipv4", "ipv6"])
        #expect(addresses.compactMap { $0["interface"] as? String } == ["eth0", "eth0"])
        #expect((tv["txt"] as? [String])?.contains("fn=Living Room TV") == true)
        #expect((tv["problems"] as? [Any])?.isEmpty == true)

        let group = try #require(devices.first { $0["friendlyName"] as? String == "Downstairs" })
        #expect(group["kind"] as? String == "group")
        #expect(group["status"] as? String == "busy")
        #expect(group["statusText"] as? String == "Spotify")
        #expect(group["port"] as? Int == 32187)
        #expect(group["uniqueID"] as? String == "googlecast:3f2b7c9a1d4e4b8f9a6c2e5d8f1b3c7a")
    }

    @Test("--app-id lists only the devices that answered the app's subtype browse")
    func appIDFilter() async throws {
        let (youTube, _) = try await Self.list(["--app-id", "233637DE"])
        #expect(youTube.exitCode == 0, "\(youTube)")
        #expect(TableLayout(output: youTube.stdout)?.rowCells.map { $0["NAME"] } == ["Living Room TV"], "\(youTube)")
        #expect(youTube.stdoutLines.last?.hasPrefix("1 device (") == true, "\(youTube)")

        let (media, _) = try await Self.list(["--app-id", "cc1ad845", "--json"])
        #expect(media.exitCode == 0, "\(media)")
        let root = try #require(try JSONSerialization.jsonObject(with: media.stdoutData) as? [String: Any])
        let devices = try #require(root["devices"] as? [[String: Any]])
        #expect(
            devices.compactMap { $0["friendlyName"] as? String } == ["Downstairs", "Kitchen speaker", "Living Room TV"])
        let scan = try #require(root["scan"] as? [String: Any])
        #expect(scan["browseTypes"] as? [String] == ["_googlecast._tcp", "_CC1AD845._sub._googlecast._tcp"])
    }

    @Test("-4, -6 and --interface keep only the matching addresses, and the devices that have one")
    func addressFilters() async throws {
        let (ipv4, _) = try await Self.list(["-4"])
        #expect(ipv4.exitCode == 0, "\(ipv4)")
        let ipv4Cells = try #require(TableLayout(output: ipv4.stdout)?.rowCells, "\(ipv4)")
        #expect(ipv4Cells.count == 4)
        #expect(ipv4Cells.first { $0["NAME"] == "Living Room TV" }?["ADDRESS"] == "192.168.1.20:8009")

        let (ipv6, _) = try await Self.list(["-6", "--json"])
        #expect(ipv6.exitCode == 0, "\(ipv6)")
        let root = try #require(try JSONSerialization.jsonObject(with: ipv6.stdoutData) as? [String: Any])
        let devices = try #require(root["devices"] as? [[String: Any]])
        #expect(devices.compactMap { $0["friendlyName"] as? String } == ["Living Room TV"])
        let addresses = devices.first?["addresses"] as? [[String: Any]]
        #expect(addresses?.compactMap { $0["address"] as? String } == ["fe80::a6b1:c1ff:fe2d:1001%eth0"])

        let (ipv6Table, _) = try await Self.list(["-6"])
        #expect(
            TableLayout(output: ipv6Table.stdout)?.rowCells.first?["ADDRESS"] == "[fe80::a6b1:c1ff:fe2d:1001%eth0]:8009"
        )

        let (eth0, _) = try await Self.list(["--interface", "eth0", "-4"])
        #expect(TableLayout(output: eth0.stdout)?.rows.count == 4, "\(eth0)")

        let (eth1, _) = try await Self.list(["-i", "eth1"])
        #expect(eth1.exitCode == 0, "\(eth1)")
        #expect(TableLayout(output: eth1.stdout) == nil, "\(eth1)")
        #expect(eth1.stdoutLines.last?.hasPrefix("0 devices (") == true, "\(eth1)")
    }

    @Test("--fail-if-empty exits 1 on an empty network and 0 when a device is listed")
    func failIfEmpty() async throws {
        let directory = try TestDirectory()
        let empty = try ReplayWriter(devices: []).write(to: directory, name: "empty.json")

        let (failing, _) = try await Self.list(["--fail-if-empty"], replay: empty)
        #expect(failing.exitCode == 1, "\(failing)")
        #expect(failing.stdoutLines.last?.hasPrefix("0 devices (scan complete") == true, "\(failing)")

        let (lenient, _) = try await Self.list([], replay: empty)
        #expect(lenient.exitCode == 0, "\(lenient)")

        let (emptyJSON, _) = try await Self.list(["--fail-if-empty", "--json"], replay: empty)
        #expect(emptyJSON.exitCode == 1, "\(emptyJSON)")
        let root = try #require(try JSONSerialization.jsonObject(with: emptyJSON.stdoutData) as? [String: Any])
        #expect((root["devices"] as? [Any])?.isEmpty == true)

        let (full, _) = try await Self.list(["--fail-if-empty"])
        #expect(full.exitCode == 0, "\(full)")
    }

    @Test("a replay without all-for-now stops at --timeout and says the list may be incomplete")
    func timeout() async throws {
        let directory = try TestDirectory()
        var writer = ReplayWriter(devices: [
            .init(
                instance: "Solo", friendlyName: "Solo TV", id: "00112233445566778899aabbccddeeff", address: "10.0.0.5")
        ])
        writer.events.removeLast()  // no all-for-now: the scan never completes
        let replay = try writer.write(to: directory)
        let (result, _) = try await Self.list(["--timeout", "0.3"], replay: replay)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains("scan stopped at the"), "\(result)")
        #expect(TableLayout(output: result.stdout)?.rowCells.map { $0["NAME"] } == ["Solo TV"], "\(result)")
    }
}
