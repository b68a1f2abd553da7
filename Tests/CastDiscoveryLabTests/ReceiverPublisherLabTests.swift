import CastDiscovery
import CastDiscoveryAvahi
import CastReceiverPublisher
import Foundation
import Testing

/// The library's publisher as a test suite uses it: a receiver published through the sender's
/// avahi-daemon, seen by a browse, changed, and withdrawn in the test's teardown. Run by
/// `Tests/Scripts/backend-lab-test.sh` inside the lab's sender namespace.
@Suite("Publishing receivers from Swift", .serialized, .enabled(if: Lab.isRunning))
struct ReceiverPublisherLabTests {
    @Test(
        "publish, see it with its TXT, change it, and withdraw it in teardown",
        arguments: ReceiverPublishingBackend.allCases)
    func publishChangeWithdraw(backend: ReceiverPublishingBackend) async throws {
        let id = (0..<32).map { _ in String(Int.random(in: 0..<16), radix: 16) }.joined()
        let receiver = SimulatedReceiver(
            id: id, friendlyName: "Swift \(backend.rawValue)", model: "Chromecast", capabilities: 200_709)
        let publisher = try CastReceiverPublisher(receivers: [receiver], publisher: backend.makePublisher())
        defer { publisher.close() }
        let collector = EventCollector(try AvahiBackend().serviceEvents(browsing: ["_googlecast._tcp"]))
        defer { collector.cancel() }
        try publisher.start()

        let name = receiver.instanceName
        let seen = await collector.wait(seconds: 10) {
            $0.services[name]?.service.txt.string(forKey: "fn") == "Swift \(backend.rawValue) (simulated)"
        }
        #expect(seen, "\(backend): \(collector.services.keys.sorted())")
        let txt = try #require(collector.services[name]?.service.txt)
        #expect(txt.keys == SimulatedReceiver.keyOrder)
        #expect(collector.services[name]?.service.port == 8009)

        _ = try publisher.apply(ReceiverChange(device: id, action: .startApp("Radio")))
        let changed = await collector.wait(seconds: 5) {
            $0.services[name]?.service.txt.string(forKey: "rs") == "Radio"
        }
        #expect(changed, "\(backend): the TXT change did not arrive")

        publisher.close()
        let gone = await collector.wait(seconds: 5) { $0.services[name] == nil }
        #expect(gone, "\(backend): still listed after close()")
    }
}
