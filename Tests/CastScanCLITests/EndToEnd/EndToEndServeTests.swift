@testable import CastScanCLI
import CastTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `cast-scan serve`: the HTTP endpoints of a watch, run as a user runs it.
@Suite("cast-scan serve, end to end")
struct EndToEndServeTests {
    /// A running `serve` and the port it said it listens on.
    struct Server {
        let process: RunningProcess
        let port: Int

        /// Starts `serve` on a port the system picks, and waits for its "listening" line.
        static func start(_ arguments: [String]) async throws -> Server {
            let process = try CastScanProcess.start(["serve", "--listen", "127.0.0.1:0"] + arguments)
            @Sendable func port() -> Int? {
                let stderr = (try? String(contentsOf: process.stderrURL, encoding: .utf8)) ?? ""
                guard
                    let range = stderr.range(
                        of: #"listening on http://127\.0\.0\.1:([0-9]+)/"#, options: .regularExpression)
                else { return nil }
                return Int(stderr[range].dropFirst("listening on http://127.0.0.1:".count).dropLast())
            }
            if await Eventually.wait(giveUpIf: { !process.isRunning }, until: { port() != nil }), let port = port() {
                return Server(process: process, port: port)
            }
            let result = await process.wait(timeout: .seconds(1))
            Issue.record("serve did not say where it listens: \(result)")
            throw CancellationError()
        }

        /// `GET path`: the status, the headers and the body.
        func get(_ path: String, accept: String? = nil) async throws -> (status: Int, type: String, body: String) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.timeoutInterval = 20
            if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return (
                http.statusCode, http.value(forHTTPHeaderField: "Content-Type") ?? "",
                String(decoding: data, as: UTF8.self)
            )
        }

        /// Polls `GET path` until `accept` takes the body (asked once more after the deadline, which
        /// only guards against a hang: a starved test task may wake after it).
        func poll(_ path: String, until accept: (String) -> Bool) async throws -> String {
            let deadline = ContinuousClock.now + .seconds(600)
            var last = ""
            repeat {
                last = try await get(path).body
                if accept(last) { return last }
                try await Task.sleep(for: .milliseconds(50))
            } while ContinuousClock.now < deadline
            last = try await get(path).body
            if accept(last) { return last }
            Issue.record("GET \(path) never matched; last body:\n\(last.prefix(2000))")
            return last
        }
    }

    @Test("a replay served: /devices, /metrics by kind, the page, /healthz; 405, 404; SIGTERM ends it with 0 at once")
    func servesAReplay() async throws {
        let server = try await Server.start(["--replay", FixturePaths.livingRoom, "--forget-after", "0"])
        // Serve keeps serving after the replay's end: a failure before the SIGTERM below must
        // not leave it running.
        defer { _ = server.process.send(SIGKILL) }
        // The recording's end: the emulator left, four devices remain (one renamed).
        let devicesText = try await server.poll("/devices") {
            $0.contains("Attic speaker") && !$0.contains("Dev Emulator")
        }
        let document = try #require(try JSONSerialization.jsonObject(with: Data(devicesText.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        let devices = try #require(document["devices"] as? [[String: Any]])
        #expect(
            devices.compactMap { $0["friendlyName"] as? String }.sorted() == [
                "Attic speaker", "Downstairs", "Living Room TV",
            ])

        let metrics = try await server.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.type == "text/plain; version=0.0.4; charset=utf-8")
        let kinds = Dictionary(grouping: devices.compactMap { $0["kind"] as? String }, by: { $0 }).mapValues(\.count)
        for kind in ["video", "audio", "group", "dynamicGroup", "generic"] {
            #expect(metrics.body.contains("\ncast_devices{kind=\"\(kind)\"} \(kinds[kind] ?? 0)\n"), "\(kind)")
        }
        #expect(
            metrics.body.contains(
                #"cast_device_up{unique_id="googlecast:406c2bcdd5995755059b5bb045326056",name="Living Room TV",model="Chromecast",kind="video"} 1"#
            ))
        // Forget-after 0: the emulator's series ended when it left.
        #expect(!metrics.body.contains("Dev Emulator"))
        let open = try await server.get("/metrics", accept: "application/openmetrics-text; version=1.0.0")
        #expect(open.type.hasPrefix("application/openmetrics-text; version=1.0.0"))
        #expect(open.body.hasSuffix("# EOF\n"))

        let page = try await server.get("/")
        #expect(page.status == 200 && page.type == "text/html; charset=utf-8")
        #expect(page.body.contains("<td class=\"name\">Attic speaker</td>"))
        // The replay ended: discovery has stopped, which the health check says.
        let health = try await server.poll("/healthz") { $0.contains("discovery stopped") }
        #expect(health.hasPrefix("unavailable: discovery stopped: the backend's events ended"), "\(health)")
        #expect(try await server.get("/healthz").status == 503)
        #expect(try await server.get("/nope").status == 404)
        var post = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/metrics")!)
        post.httpMethod = "POST"
        post.httpBody = Data("x=1".utf8)
        let (_, postResponse) = try await URLSession.shared.data(for: post)
        #expect((postResponse as? HTTPURLResponse)?.statusCode == 405)

        let sent = server.process.send(SIGTERM)
        let result = await server.process.wait(timeout: .seconds(10))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.ended - sent < .seconds(2), "\(result)")
    }

    @Test("hostile names: no raw control character in the metrics, the page or the JSON; HTML escaped")
    func hostileNames() async throws {
        let directory = try TestDirectory()
        let replay = try HostileDeviceNameTests.replay(in: directory)
        let server = try await Server.start(["--replay", replay])
        defer { _ = server.process.send(SIGKILL) }
        let count = HostileDeviceNameTests.names.count
        _ = try await server.poll("/devices") { $0.components(separatedBy: "\"friendlyName\"").count - 1 == count }
        for (path, accept) in [
            ("/metrics", nil), ("/metrics", "application/openmetrics-text"), ("/", nil), ("/devices", nil),
        ] {
            let body = try await server.get(path, accept: accept).body
            let unsafe = HostileOutput.unsafeScalars(in: body, allowingTabs: false).filter { $0 != "U+000A" }
            #expect(unsafe.isEmpty, "\(path): \(unsafe)")
        }
        let metrics = try await server.get("/metrics").body
        #expect(metrics.components(separatedBy: "\ncast_device_up{").count - 1 == count)
        // A line break is shown as the escape the terminal table uses, then escaped for the format.
        #expect(metrics.contains(#"name="Line\\nbreak\\rreturn""#), "\(metrics.prefix(600))")
        #expect(metrics.contains(#"name="\\e[31mRED\\e[0m""#), "\(metrics.prefix(600))")
        let page = try await server.get("/").body
        #expect(!page.contains("<script"))
        #expect(page.components(separatedBy: "<tr class=\"device").count - 1 == count)
    }

    @Test("with --report: the spool's pending events in the metrics while the collector refuses them")
    func reportMetrics() async throws {
        let directory = try TestDirectory()
        // Port 9 on loopback: nothing listens, every send is refused and the events wait.
        let server = try await Server.start([
            "--replay", FixturePaths.livingRoom, "--report", "http://127.0.0.1:9/events", "--spool",
            directory.path("spool"),
        ])
        defer { _ = server.process.send(SIGKILL) }
        let metrics = try await server.poll("/metrics") { body in
            body.split(separator: "\n").contains { $0.hasPrefix("cast_report_pending_events ") && !$0.hasSuffix(" 0") }
        }
        #expect(
            metrics.contains("\n# TYPE cast_report_dropped_events_total counter\ncast_report_dropped_events_total 0\n"),
            "\(metrics.suffix(800))")
        let pending = metrics.split(separator: "\n").first { $0.hasPrefix("cast_report_pending_events ") }
        #expect(
            pending.flatMap { Int($0.split(separator: " ").last ?? "") }.map { $0 >= 4 } == true, "\(pending ?? "none")"
        )
    }

    @Test("bad flags and a port in use: a clear error and a non-zero exit")
    func refusals() async throws {
        for (arguments, status, text) in [
            (["serve", "--listen", "localhost:80"], 64, "--listen"),
            (["serve", "--listen", "127.0.0.1:80\u{1B}[2J"], 64, "--listen"),
            (["serve", "--listen", "127.0.0.1:99999"], 64, "--listen"),
            (["serve", "--forget-after", "-1"], 64, "--forget-after"),
            (["serve", "--max-devices", "0"], 64, "--max-devices"),
            (["serve", "--max-connections", "10001"], 64, "--max-connections"),
        ] {
            let result = try await CastScanProcess.run(arguments + ["--replay", FixturePaths.livingRoom])
            #expect(result.exitCode == Int32(status), "\(arguments): \(result)")
            #expect(result.stderr.contains(text), "\(arguments): \(result)")
        }
        let first = try await Server.start(["--replay", FixturePaths.livingRoom])
        defer { _ = first.process.send(SIGKILL) }
        let second = try await CastScanProcess.run([
            "serve", "--listen", "127.0.0.1:\(first.port)", "--replay", FixturePaths.livingRoom,
        ])
        #expect(second.exitCode == 69, "\(second)")
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(first.port): Address already in use"), "\(second)")
    }
}
