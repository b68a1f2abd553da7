import CastChannel
import CastDiscovery
@testable import CastReceiverPublisher
import Testing

@Suite("Simulated receivers: named and described as real devices publish themselves")
struct SimulatedReceiverTests {
    @Test("a device: <Model>-<32 hex id>, port 8009, the TXT keys in the order devices send them")
    func device() {
        let receiver = SimulatedReceiver(
            id: "406C2BCDD5995755059B5BB045326056", friendlyName: "Living Room", model: "Google Nest Mini",
            capabilities: 198_660)
        #expect(receiver.instanceName == "Google-Nest-Mini-406c2bcdd5995755059b5bb045326056")
        #expect(receiver.port == 8009)
        #expect(receiver.txt.map(\.keyString) == SimulatedReceiver.keyOrder)
        #expect(receiver.value(of: "fn") == "Living Room")
        #expect(receiver.value(of: "ca") == "198660")
        #expect(receiver.value(of: "st") == "0" && receiver.value(of: "rs") == "")
        #expect(receiver.appIDs == ["CC1AD845"])
        #expect(receiver.registration().subtypes == ["_CC1AD845"])
        #expect(receiver.registration().serviceType == "_googlecast._tcp")
    }

    @Test("a group: Google-Cast-Group-<hex of its UUID>, on a high port made from its id")
    func group() {
        let receiver = SimulatedReceiver(
            id: "3F2B7C9A-1D4E-4B8F-9A6C-2E5D8F1B3C7A", friendlyName: "Downstairs", model: "Google Cast Group",
            capabilities: 198_692, isGroup: true, busy: true, statusText: "Spotify")
        #expect(receiver.instanceName == "Google-Cast-Group-3f2b7c9a1d4e4b8f9a6c2e5d8f1b3c7a")
        #expect((32_000..<42_000).contains(receiver.port))
        #expect(
            receiver.port
                == SimulatedReceiver(id: receiver.id, friendlyName: "x", model: "y", capabilities: 0, isGroup: true)
                .port)
        #expect(receiver.value(of: "st") == "1" && receiver.value(of: "rs") == "Spotify")
        #expect(receiver.normalizedID == "3f2b7c9a1d4e4b8f9a6c2e5d8f1b3c7a")
    }

    @Test("the status its Cast channel answers: the idle screen, or the app the status text names; the script's volume")
    func receiverStatus() throws {
        var receiver = SimulatedReceiver(
            id: "406C2BCDD5995755059B5BB045326056", friendlyName: "Living Room", model: "Chromecast",
            capabilities: 200_709)
        let idle = receiver.receiverStatus
        #expect(idle.applications?.first?.displayName == "Backdrop" && idle.applications?.first?.isIdleScreen == true)
        #expect(idle.runningApplication == nil)
        #expect(idle.volume == ReceiverVolume(level: 0.5, muted: false, controlType: "attenuation", stepInterval: 0.05))
        #expect(idle.applications?.first?.sessionId == "406c2bcd-d599-5755-059b-5bb045326056")
        receiver.set("st", to: "1")
        receiver.set("rs", to: "YouTube")
        receiver.volumeLevel = 0.3
        receiver.isMuted = true
        let playing = receiver.receiverStatus
        #expect(playing.runningApplication?.appId == "233637DE" && playing.runningApplication?.statusText == "YouTube")
        #expect(playing.volume?.level == 0.3 && playing.volume?.muted == true)
        receiver.set("rs", to: "Radio Paradise")
        #expect(receiver.receiverStatus.runningApplication?.appId == "CC1AD845")
        // What the channel sends is what a sender reads back.
        let message = try ReceiverMessage(
            json: #"{"type":"RECEIVER_STATUS","requestId":1,"status":\#(receiver.receiverStatus.jsonText)}"#)
        #expect(message.status == receiver.receiverStatus)
    }

    @Test("model names become one label: anything but ASCII letters and digits is a hyphen, runs of them one")
    func modelLabels() {
        #expect(SimulatedReceiver.instanceLabel(of: "SHIELD Android TV") == "SHIELD-Android-TV")
        #expect(SimulatedReceiver.instanceLabel(of: "Nest  Hub (2nd gen)") == "Nest-Hub-2nd-gen")
        #expect(SimulatedReceiver.instanceLabel(of: "Колонка") == "Chromecast")
    }

    @Test("a change replaces the key where it stands (any case), a new key goes last")
    func set() {
        var receiver = SimulatedReceiver(id: "0a1b2c3d4e5f", friendlyName: "Emu", model: "Chromecast", capabilities: 5)
        receiver.set("FN", to: "Renamed")
        #expect(receiver.txt.map(\.keyString) == SimulatedReceiver.keyOrder.map { $0 == "fn" ? "FN" : $0 })
        #expect(receiver.value(of: "fn") == "Renamed")
        receiver.set("zz", to: "1")
        #expect(receiver.txt.last == TXTEntry("zz=1"))
    }

    @Test("published: \" (simulated)\" after the friendly name once, unless exact names")
    func suffix() {
        let receiver = SimulatedReceiver(id: "0a1b2c3d4e5f", friendlyName: "Emu", model: "Chromecast", capabilities: 5)
        #expect(receiver.published(exactNames: false).value(of: "fn") == "Emu (simulated)")
        #expect(receiver.published(exactNames: false).published(exactNames: false).value(of: "fn") == "Emu (simulated)")
        #expect(receiver.published(exactNames: true) == receiver)
    }

    @Test("ids: 32 hex, 12 hex and UUIDs are accepted; random ones have the shape of their kind")
    func ids() {
        for id in ["406c2bcdd5995755059b5bb045326056", "0A1B2C3D4E5F", "3F2B7C9A-1D4E-4B8F-9A6C-2E5D8F1B3C7A"] {
            #expect(CastDeviceIDShape.accepts(id), "\(id)")
        }
        for id in [
            "", "406c2bcd", "406c2bcdd5995755059b5bb04532605g", "3F2B7C9A1-D4E-4B8F-9A6C-2E5D8F1B3C7A", "0a1b2c3d4e5f ",
        ] {
            #expect(!CastDeviceIDShape.accepts(id), "\(id)")
        }
        let device = CastDeviceIDShape.random(group: false)
        let group = CastDeviceIDShape.random(group: true)
        #expect(CastDeviceIDShape.accepts(device) && device.count == 32 && device == device.lowercased())
        #expect(CastDeviceIDShape.accepts(group) && group.count == 36 && group == group.uppercased())
        #expect(Set((0..<20).map { _ in CastDeviceIDShape.random(group: false) }).count == 20)
    }
}
