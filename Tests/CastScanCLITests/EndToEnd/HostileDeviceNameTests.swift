@testable import CastScanCLI
import Foundation
import Testing

/// Device names are untrusted network input: whatever a device announces, the table must not
/// drive the terminal, must stay one line per device and stay aligned; JSON keeps the name whole.
@Suite("cast-scan with hostile device names, end to end")
struct HostileDeviceNameTests {
    static let longName = String(repeating: "Long name ", count: 30)

    /// The names announced, in the order of their made-up ids.
    static let names: [String] = [
        "\u{1B}[31mRED\u{1B}[0m",
        "\u{1B}]0;title\u{07}Window",
        "\u{1B}[2JClear",
        "Bell\u{07}ring",
        "Tab\tand\u{01}ctl\u{7F}del\u{85}nel\u{9B}31mcsi",
        "Line\nbreak\rreturn",
        "\u{202E}evil.exe",
        longName,
        "居間のテレビ",
        "Cafe\u{301} e\u{301}te\u{301}",
        "👨‍👩‍👧 Family",
        "🇯🇵 Tokyo",
    ]

    static func replay(in directory: TestDirectory) throws -> String {
        let devices = names.enumerated().map { index, name in
            ReplayWriter.Device(
                instance: "Hostile-\(index)", friendlyName: name, id: String(format: "%032x", index + 1),
                address: "10.0.0.\(index + 1)", model: "Model\u{1B}[1m\u{9B}",
                extraTXT: ["rs=App\u{1B}]2;x\u{07}"])
        }
        return try ReplayWriter(devices: devices).write(to: directory, name: "hostile.json")
    }

    @Test("the table has no control characters, one aligned line per device, and cuts the long name with …")
    func table() async throws {
        #expect(Self.longName.count == 300)
        let directory = try TestDirectory()
        let replay = try Self.replay(in: directory)
        let result = try await CastScanProcess.run(["--replay", replay, "--state", directory.path("state.json")])
        #expect(result.exitCode == 0, "\(result)")

        let unsafe = HostileOutput.unsafeScalars(in: result.stdout)
        #expect(unsafe.isEmpty, "unsafe scalars on stdout: \(unsafe)")
        #expect(!result.stdoutData.contains(0x1B), "ESC on stdout")
        #expect(!result.stdoutData.contains(0x07), "BEL on stdout")
        #expect(HostileOutput.unsafeScalars(in: result.stderr).isEmpty, "\(result)")

        let table = try #require(TableLayout(output: result.stdout), "\(result)")
        #expect(table.rows.count == Self.names.count, "one line per device\n\(result)")
        #expect(result.stdoutLines.last?.hasPrefix("\(Self.names.count) devices (") == true, "\(result)")
        for line in [table.header] + table.rows {
            let problems = table.alignmentProblems(of: line)
            #expect(problems.isEmpty, "\(line): \(problems)")
        }

        let cells = table.rowCells
        #expect(Set(cells.compactMap { $0["ID"] }) == Set((1...Self.names.count).map { String(format: "%032x", $0) }))
        func name(id: Int) -> String? { cells.first { $0["ID"] == String(format: "%032x", id) }?["NAME"] }
        // Escape sequences are shown, not obeyed.
        #expect(name(id: 1) == "\\e[31mRED\\e[0m")
        #expect(name(id: 2) == "\\e]0;title\\x07Window")
        #expect(name(id: 6) == "Line\\nbreak\\rreturn")
        #expect(name(id: 7) == "\\u{202E}evil.exe")
        // The long name is cut to the column's 32 columns, ending with an ellipsis.
        let long = try #require(name(id: 8))
        #expect(long.hasSuffix("…"))
        #expect(DisplayWidth.width(of: long) == 32)
        #expect(Self.longName.hasPrefix(String(long.dropLast())))
        // Wide, combining and emoji names are kept as they are.
        #expect(name(id: 9) == "居間のテレビ")
        #expect(name(id: 10) == "Cafe\u{301} e\u{301}te\u{301}")
        #expect(name(id: 11) == "👨‍👩‍👧 Family")
        #expect(name(id: 12) == "🇯🇵 Tokyo")
        for row in cells {
            #expect(row["MODEL"] == "Model\\e[1m\\u{9B}", "\(row)")
            #expect(row["STATUS"] == "idle", "\(row)")
        }
    }

    @Test("--json keeps every name whole and exact")
    func json() async throws {
        let directory = try TestDirectory()
        let replay = try Self.replay(in: directory)
        let result = try await CastScanProcess.run([
            "--replay", replay, "--state", directory.path("state.json"), "--json",
        ])
        #expect(result.exitCode == 0, "\(result)")
        // JSON escapes control characters itself: none reaches the terminal raw.
        #expect(!result.stdoutData.contains(0x1B))
        #expect(!result.stdoutData.contains(0x07))
        let root = try #require(
            try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result)")
        let devices = try #require(root["devices"] as? [[String: Any]])
        let byID = Dictionary(
            devices.map { ($0["deviceID"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        for (index, name) in Self.names.enumerated() {
            let device = byID[String(format: "%032x", index + 1)]
            let friendlyName = device?["friendlyName"] as? String
            // Compare scalars: String equality would call canonically equivalent names equal.
            #expect(
                friendlyName.map { Array($0.unicodeScalars) } == Array(name.unicodeScalars),
                "device \(index + 1): \(String(reflecting: friendlyName))")
        }
        #expect((byID[String(format: "%032x", 8)]?["friendlyName"] as? String)?.count == 300)
    }

    @Test("watch prints hostile names safely, one line per event")
    func watch() async throws {
        let directory = try TestDirectory()
        let replay = try Self.replay(in: directory)
        let result = try await CastScanProcess.run(["watch", "--replay", replay])
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            HostileOutput.unsafeScalars(in: result.stdout).isEmpty, "\(HostileOutput.unsafeScalars(in: result.stdout))")
        let inserted = result.stdoutLines.filter { $0.contains(" + ") }
        #expect(inserted.count == Self.names.count, "\(result)")
        #expect(
            inserted.contains { $0.contains("+ \\e[31mRED\\e[0m (video, Model\\e[1m\\u{9B}) 10.0.0.1:8009") },
            "\(result)")
        #expect(inserted.contains { $0.contains("Line\\nbreak\\rreturn") }, "\(result)")

        let jsonl = try await CastScanProcess.run(["watch", "--replay", replay, "--jsonl"])
        #expect(jsonl.exitCode == 0, "\(jsonl)")
        var names: [String] = []
        for line in jsonl.stdoutLines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            if let device = object["device"] as? [String: Any], let name = device["friendlyName"] as? String {
                names.append(name)
            }
        }
        #expect(Set(names.map { Array($0.unicodeScalars) }) == Set(Self.names.map { Array($0.unicodeScalars) }))
    }
}
