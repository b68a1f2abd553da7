import CastDiscovery
import CastScanServing
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct HTTPServerTests {
    private static let loopback = HTTPListenAddress(host: .ipv4(IPv4Address(127, 0, 0, 1)), port: 0)

    private func server(limits: HTTPServer.Limits = .init()) throws -> HTTPServer {
        try HTTPServer(listen: Self.loopback, limits: limits) { request in
            if request.path == "/echo" {
                return .text(
                    200, "\(request.method) \(request.path) accept=\(request.accept ?? "-")\n",
                    headers: [("X-Test", "yes")])
            }
            return .text(404, "no\n")
        }
    }

    @Test func answersWithTheHandlersResponse() throws {
        let server = try server()
        defer { server.stop() }
        #expect(server.address.port != 0)
        let reply = try #require(
            HTTPTestClient.get(port: server.address.port, "/echo", headers: ["Accept: text/plain"]))
        #expect(reply.status == 200)
        #expect(reply.body == "GET /echo accept=text/plain\n")
        #expect(reply.head.contains("X-Test: yes"))
        #expect(reply.head.contains("Content-Type: text/plain; charset=utf-8"))
        #expect(try #require(HTTPTestClient.get(port: server.address.port, "/other")).status == 404)
        let head = try #require(HTTPTestClient.get(port: server.address.port, "/echo", method: "HEAD"))
        #expect(head.status == 200 && head.body.isEmpty)
    }

    @Test func aHugeRequestHeadIsRefused() throws {
        let server = try server()
        defer { server.stop() }
        let reply = try #require(
            HTTPTestClient.get(
                port: server.address.port, "/echo", headers: ["X-Big: " + String(repeating: "a", count: 1 << 20)]))
        #expect([400, 413, 431].contains(reply.status))
        // The server still answers others.
        #expect(try #require(HTTPTestClient.get(port: server.address.port, "/echo")).status == 200)
    }

    @Test func aClientThatSendsNothingDoesNotHoldUpOthers() throws {
        let server = try server(limits: .init(connections: 8, idleTimeoutSeconds: 2))
        defer { server.stop() }
        let silent = (0..<4).map { _ in HTTPTestClient.connect(port: server.address.port) }
        defer { silent.forEach { close($0) } }
        #expect(silent.allSatisfy { $0 >= 0 })
        #expect(try #require(HTTPTestClient.get(port: server.address.port, "/echo")).status == 200)
        // The idle connections are closed by the server after the idle timeout.
        let start = ContinuousClock.now
        let reply = HTTPTestClient.read(silent[0])
        #expect(reply == nil)
        #expect(ContinuousClock.now - start < .seconds(8))
    }

    @Test func connectionsPastTheLimitWaitForAFreeOne() throws {
        let server = try server(limits: .init(connections: 3, idleTimeoutSeconds: 30))
        defer { server.stop() }
        let port = server.address.port
        let held = (0..<3).map { _ in HTTPTestClient.connect(port: port) }
        #expect(held.allSatisfy { $0 >= 0 })
        // No wait for the server to accept them: each connect returned with its handshake done,
        // and the listen backlog hands connections over in that order, so the fourth comes after.
        // A fourth client's request is not answered while three connections are open...
        let fourth = HTTPTestClient.connect(port: port)
        try #require(fourth >= 0)
        defer { close(fourth) }
        let request = Array("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        #expect(
            request.withUnsafeBytes { send(fourth, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == request.count)
        // A deliberate "no answer within 700 ms" check: a busy machine can only make it miss an
        // early answer, never fail a server that waits. (The wait goes on through signals: in a
        // full run, other tests' children exit meanwhile.)
        #expect(
            HTTPTestClient.isReadable(fourth, within: 700) == false, "answered or closed while the limit was reached")
        // ...and is once they close.
        held.forEach { close($0) }
        #expect(HTTPTestClient.read(fourth)?.status == 200)
    }

    @Test func anAddressInUseIsSaid() throws {
        let first = try server()
        defer { first.stop() }
        let taken = HTTPListenAddress(host: .ipv4(IPv4Address(127, 0, 0, 1)), port: first.address.port)
        #expect {
            try HTTPServer(listen: taken) { _ in .text(200, "") }
        } throws: { error in
            guard case .cannotListen(let address, let reason) = error as? HTTPServerError else { return false }
            return address == taken && reason.contains("in use")
        }
    }

    @Test func stopEndsServingAndCanBeCalledTwice() throws {
        let server = try server()
        let port = server.address.port
        #expect(HTTPTestClient.get(port: port, "/echo")?.status == 200)
        server.stop()
        server.stop()
        #expect(HTTPTestClient.connect(port: port) < 0)
    }
}
