import CastDiscovery
import CastScanServing
import Foundation
import Testing

/// Answers given later, from another thread: the server goes on meanwhile, and a server that
/// stops answers what still waits.
@Suite("HTTPServer: answers given later")
struct HTTPServerLaterTests {
    private static let loopback = HTTPListenAddress(host: .ipv4(IPv4Address(127, 0, 0, 1)), port: 0)

    /// The `respond` of the request that waits, handed over when the server suspends it.
    final class Waiting: @unchecked Sendable {
        private let lock = NSLock()
        private var respond: (@Sendable (HTTPResponse) -> Void)?
        let started = DispatchSemaphore(value: 0)

        func hold(_ respond: @escaping @Sendable (HTTPResponse) -> Void) {
            lock.withLock { self.respond = respond }
            started.signal()
        }

        func answer(_ response: HTTPResponse) { lock.withLock { respond }?(response) }
    }

    private func server(_ waiting: Waiting) throws -> HTTPServer {
        try HTTPServer(listen: Self.loopback) { request in
            switch request.path {
            case "/later": return .later { waiting.hold($0) }
            case "/query": return .now(.text(200, "target=\(request.query["target"] ?? "-")\n"))
            default: return .now(.text(200, "now\n"))
            }
        }
    }

    /// `GET path` on a thread of its own; the reply when the returned semaphore is signalled.
    private func getInBackground(_ port: UInt16, _ path: String) -> (DispatchSemaphore, () -> HTTPTestClient.Reply?) {
        let done = DispatchSemaphore(value: 0)
        let lock = NSLock()
        nonisolated(unsafe) var reply: HTTPTestClient.Reply?
        Thread {
            let got = HTTPTestClient.get(port: port, path)
            lock.withLock { reply = got }
            done.signal()
        }.start()
        return (done, { lock.withLock { reply } })
    }

    @Test("a request answered later waits for its answer while others are answered at once")
    func later() throws {
        let waiting = Waiting()
        let server = try server(waiting)
        defer { server.stop() }
        let (done, reply) = getInBackground(server.address.port, "/later")
        #expect(waiting.started.wait(timeout: .now() + 60) == .success, "the request never reached the handler")
        #expect(try #require(HTTPTestClient.get(port: server.address.port, "/now")).body == "now\n")
        #expect(done.wait(timeout: .now()) == .timedOut, "answered before its answer was given")
        waiting.answer(.text(201, "late\n"))
        waiting.answer(.text(500, "twice\n"))
        #expect(done.wait(timeout: .now() + 60) == .success)
        let got = try #require(reply())
        #expect(got.status == 201 && got.body == "late\n")
        #expect(try #require(HTTPTestClient.get(port: server.address.port, "/now")).status == 200)
    }

    @Test("a server that stops ends its waiting requests' connections (503 at most); an answer after that does nothing")
    func stopAnswersWaiting() throws {
        let waiting = Waiting()
        let server = try server(waiting)
        let (done, reply) = getInBackground(server.address.port, "/later")
        #expect(waiting.started.wait(timeout: .now() + 60) == .success)
        server.stop()
        #expect(done.wait(timeout: .now() + 60) == .success)
        // libmicrohttpd may close the resumed connection before it sends the 503.
        #expect(reply().map { $0.status == 503 } ?? true, "\(String(describing: reply()))")
        waiting.answer(.text(200, "too late\n"))
    }

    @Test("query arguments the server reads arrive decoded")
    func query() throws {
        let server = try server(Waiting())
        defer { server.stop() }
        let reply = try #require(
            HTTPTestClient.get(port: server.address.port, "/query?target=%5Bfd00%3A%3A5%5D%3A8009"))
        #expect(reply.body == "target=[fd00::5]:8009\n")
    }
}
