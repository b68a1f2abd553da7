import CastDiscovery
import CastReceiverPublisher
import Testing

/// A daemon that records what it was asked.
final class RecordingPublisher: ServicePublisher, Sendable {
    enum Call: Equatable {
        case register(Int, ServiceRegistration)
        case update(Int, [TXTEntry])
        case withdraw(Int)
        case close
    }

    let calls = LockedValue<[Call]>([])
    let events: AsyncStream<PublishingEvent>
    let continuation: AsyncStream<PublishingEvent>.Continuation
    var droppedEvents: Int { 0 }

    init() { (events, continuation) = AsyncStream.makeStream() }

    func register(_ registration: ServiceRegistration, id: Int) throws(DiscoveryError) {
        calls.withLock { $0.append(.register(id, registration)) }
    }
    func updateTXT(_ txt: [TXTEntry], id: Int) throws(DiscoveryError) { calls.withLock { $0.append(.update(id, txt)) } }
    func withdraw(id: Int) { calls.withLock { $0.append(.withdraw(id)) } }
    func close() {
        calls.withLock { $0.append(.close) }
        continuation.finish()
    }
    var recorded: [Call] { calls.withLock { $0 } }
}

@Suite("The receiver publisher: receivers registered, changed as devices announce, withdrawn")
struct CastReceiverPublisherTests {
    static let tv = SimulatedReceiver(
        id: "406c2bcdd5995755059b5bb045326056", friendlyName: "TV", model: "Chromecast", capabilities: 200_709,
        appIDs: ["CC1AD845", "233637DE"])
    static let speaker = SimulatedReceiver(
        id: "e8b5a3a6f4f1a9d2c0b7e6d5c4b3a2f1", friendlyName: "Speaker", model: "Google Nest Mini",
        capabilities: 198_660)

    @Test("start registers each receiver under its index, with the suffix, subtypes and interfaces")
    func start() throws {
        let daemon = RecordingPublisher()
        let publisher = try CastReceiverPublisher(
            receivers: [Self.tv, Self.speaker], publisher: daemon, options: .init(interfaceIndexes: [3]))
        try publisher.start()
        guard case .register(0, let first) = daemon.recorded.first else { Issue.record("\(daemon.recorded)"); return }
        #expect(first.instanceName == Self.tv.instanceName)
        #expect(first.subtypes == ["_CC1AD845", "_233637DE"])
        #expect(first.interfaceIndexes == [3])
        #expect(first.txt.contains(TXTEntry("fn=TV (simulated)")))
        #expect(daemon.recorded.count == 2)
        publisher.close()
        #expect(daemon.recorded.last == .close)
    }

    @Test("changes are TXT updates of the keys they touch; a device is found by id (any case, dashes) or instance name")
    func changes() throws {
        let daemon = RecordingPublisher()
        let publisher = try CastReceiverPublisher(receivers: [Self.tv, Self.speaker], publisher: daemon)
        try publisher.start()
        let renamed = try publisher.apply(
            ReceiverChange(device: "406C2BCD-D599-5755-059B-5BB045326056", action: .rename("Den")))
        #expect(renamed.id == 0 && renamed.receiver.value(of: "fn") == "Den (simulated)")
        let busy = try publisher.apply(
            ReceiverChange(device: Self.speaker.instanceName.uppercased(), action: .startApp("Spotify")))
        #expect(busy.id == 1 && busy.receiver.value(of: "st") == "1" && busy.receiver.value(of: "rs") == "Spotify")
        let idle = try publisher.apply(ReceiverChange(device: Self.speaker.id, action: .stopApp))
        #expect(idle.receiver.value(of: "st") == "0" && idle.receiver.value(of: "rs") == "")
        _ = try publisher.apply(ReceiverChange(device: Self.tv.id, action: .set([.init(key: "ve", value: "06")])))
        let updates = daemon.recorded.compactMap { call -> (Int, [TXTEntry])? in
            if case .update(let id, let txt) = call { return (id, txt) }
            return nil
        }
        #expect(updates.map(\.0) == [0, 1, 1, 0])
        #expect(updates.last?.1.map(\.keyString) == SimulatedReceiver.keyOrder)
        #expect(
            publisher.receivers[0].value(of: "ve") == "06"
                && publisher.receivers[0].value(of: "fn") == "Den (simulated)")
    }

    @Test("withdraw and return; a withdrawn device cannot change, a published one cannot return")
    func withdrawAndReturn() throws {
        let daemon = RecordingPublisher()
        let publisher = try CastReceiverPublisher(
            receivers: [Self.tv], publisher: daemon, options: .init(exactNames: true))
        try publisher.start()
        #expect(throws: DiscoveryError.self) {
            try publisher.apply(ReceiverChange(device: Self.tv.id, action: .return))
        }
        #expect(try publisher.apply(ReceiverChange(device: Self.tv.id, action: .withdraw)).isPublished == false)
        #expect(publisher.publishedCount == 0)
        #expect(throws: DiscoveryError.self) {
            try publisher.apply(ReceiverChange(device: Self.tv.id, action: .rename("X")))
        }
        #expect(throws: DiscoveryError.self) {
            try publisher.apply(ReceiverChange(device: Self.tv.id, action: .withdraw))
        }
        #expect(try publisher.apply(ReceiverChange(device: Self.tv.id, action: .return)).isPublished)
        #expect(daemon.recorded.suffix(2) == [.withdraw(0), .register(0, Self.tv.registration())])
    }

    @Test("an unknown device, and a change that makes a TXT string too long, are refused before the daemon is asked")
    func refusals() throws {
        let daemon = RecordingPublisher()
        let publisher = try CastReceiverPublisher(receivers: [Self.tv], publisher: daemon)
        for change in [
            ReceiverChange(device: "nobody", action: .stopApp),
            ReceiverChange(device: "0a1b2c3d4e5f", action: .stopApp),
            ReceiverChange(device: Self.tv.id, action: .rename(String(repeating: "n", count: 250))),
        ] {
            #expect(throws: DiscoveryError.self) { try CastReceiverPublisher.check([change], receivers: [Self.tv]) }
            #expect(throws: DiscoveryError.self) { try publisher.apply(change) }
        }
        #expect(daemon.recorded.isEmpty)
    }

    @Test("a friendly name that only fits without the suffix is refused unless exact names")
    func suffixTooLong() throws {
        let name = String(repeating: "n", count: 250)
        let receiver = SimulatedReceiver(id: "0a1b2c3d4e5f", friendlyName: name, model: "Chromecast", capabilities: 5)
        #expect(throws: DiscoveryError.self) {
            try CastReceiverPublisher(receivers: [receiver], publisher: RecordingPublisher())
        }
        _ = try CastReceiverPublisher(
            receivers: [receiver], publisher: RecordingPublisher(), options: .init(exactNames: true))
    }

    @Test(
        "a script is checked in order: a second withdraw, a return of a published device, a change to a withdrawn one, TXT growing past its limit line by line"
    )
    func scriptOrder() throws {
        func message(_ changes: [ReceiverChange]) -> String? {
            do throws(DiscoveryError) {
                try CastReceiverPublisher.check(changes, receivers: [Self.tv, Self.speaker])
                return nil
            } catch {
                return error.message
            }
        }
        let tv = Self.tv.id
        #expect(
            message([
                .init(device: tv, action: .withdraw), .init(device: tv, action: .return),
                .init(device: tv, action: .withdraw),
            ]) == nil)
        #expect(
            message([.init(device: tv, action: .withdraw), .init(device: tv, action: .withdraw)])?.hasPrefix(
                "change 2: ") == true)
        #expect(message([.init(device: tv, action: .return)])?.contains("is published") == true)
        #expect(
            message([.init(device: tv, action: .withdraw), .init(device: tv, action: .stopApp)])?.contains("change 2:")
                == true)
        let grow = (0..<6).map {
            ReceiverChange(device: tv, action: .set([.init(key: "x\($0)", value: String(repeating: "v", count: 250))]))
        }
        #expect(message(grow)?.hasPrefix("change 5: ") == true)
        #expect(message(Array(grow.prefix(4))) == nil)
    }
}
