import CastDiscovery
import Synchronization

/// Publishes simulated Cast receivers through a daemon (``ReceiverPublishingBackend``) and
/// applies changes to them as the devices would announce them, until ``close()`` withdraws
/// them all.
///
/// Registration ids are the receivers' indexes: the events of ``events`` name them.
public final class CastReceiverPublisher: Sendable {
    /// How receivers are published.
    public struct Options: Sendable, Hashable {
        /// Publish friendly names as given, without ``SimulatedReceiver/simulatedSuffix``.
        public var exactNames: Bool
        /// The interfaces to publish on, by index; empty for every one the daemon uses.
        public var interfaceIndexes: [UInt32]

        /// Creates options.
        public init(exactNames: Bool = false, interfaceIndexes: [UInt32] = []) {
            self.exactNames = exactNames
            self.interfaceIndexes = interfaceIndexes
        }
    }

    /// A change applied: the receiver as it is now, and whether it is published.
    public struct Applied: Sendable, Hashable {
        /// The receiver's registration id.
        public var id: Int
        /// The receiver after the change.
        public var receiver: SimulatedReceiver
        /// Whether it is published (false after `withdraw`).
        public var isPublished: Bool
    }

    private struct State {
        var receivers: [SimulatedReceiver]
        var withdrawn: Set<Int> = []
    }

    private let publisher: any ServicePublisher
    private let options: Options
    private let state: Mutex<State>

    /// Prepares `receivers` for `publisher`; nothing is published before ``start()``.
    ///
    /// - Throws: ``DiscoveryError`` of kind `badInput` when a receiver cannot be published as
    ///   it would be (a friendly name too long for its TXT string with the suffix, say).
    public init(receivers: [SimulatedReceiver], publisher: any ServicePublisher, options: Options = Options()) throws(DiscoveryError) {
        let published = receivers.map { $0.published(exactNames: options.exactNames) }
        for receiver in published { try receiver.registration(interfaceIndexes: options.interfaceIndexes).validate() }
        self.publisher = publisher
        self.options = options
        state = Mutex(State(receivers: published))
    }

    /// What becomes of the registrations (ids are receiver indexes). Ends after ``close()``.
    public var events: AsyncStream<PublishingEvent> { publisher.events }

    /// The events the stream dropped for a reader that was behind.
    public var droppedEvents: Int { publisher.droppedEvents }

    /// The receivers as published, in order.
    public var receivers: [SimulatedReceiver] { state.withLock { $0.receivers } }

    /// Registers every receiver.
    public func start() throws(DiscoveryError) {
        for (id, receiver) in receivers.enumerated() {
            try publisher.register(receiver.registration(interfaceIndexes: options.interfaceIndexes), id: id)
        }
    }

    /// Applies `change` now: a TXT update for a rename, an app's start or stop or `set`; a
    /// withdrawal (goodbyes) or a new registration for `withdraw` and `return`.
    ///
    /// - Throws: ``DiscoveryError`` of kind `badInput` for a device no receiver is, a withdrawn
    ///   one changed, a TXT string made too long; the daemon's refusal otherwise.
    public func apply(_ change: ReceiverChange) throws(DiscoveryError) -> Applied {
        let (id, before, withdrawn) = try find(change.device)
        var after = before
        switch change.action {
        case .rename(let name):
            after.set("fn", to: name)
            after = after.published(exactNames: options.exactNames)
        case .startApp(let name):
            after.set("st", to: "1")
            after.set("rs", to: name)
        case .stopApp:
            after.set("st", to: "0")
            after.set("rs", to: "")
        case .set(let settings):
            for setting in settings { after.set(setting.key, to: setting.value) }
        case .withdraw:
            guard !withdrawn else { throw Self.bad("\(SafeText.quoted(change.device)) is withdrawn already") }
            publisher.withdraw(id: id)
            state.withLock { _ = $0.withdrawn.insert(id) }
            return Applied(id: id, receiver: before, isPublished: false)
        case .return:
            guard withdrawn else { throw Self.bad("\(SafeText.quoted(change.device)) is published; withdraw it before it returns") }
            try publisher.register(before.registration(interfaceIndexes: options.interfaceIndexes), id: id)
            state.withLock { _ = $0.withdrawn.remove(id) }
            return Applied(id: id, receiver: before, isPublished: true)
        }
        guard !withdrawn else { throw Self.bad("\(SafeText.quoted(change.device)) is withdrawn; it can change once it returns") }
        try after.registration(interfaceIndexes: options.interfaceIndexes).validate()
        try publisher.updateTXT(after.txt, id: id)
        state.withLock { $0.receivers[id] = after }
        return Applied(id: id, receiver: after, isPublished: true)
    }

    /// Checks `change` without making it: the device it names exists, and the TXT it makes is
    /// valid for the receiver as it is now. Returns the receiver's id.
    ///
    /// - Throws: ``DiscoveryError`` of kind `badInput`, as ``apply(_:)`` would.
    public func check(_ change: ReceiverChange) throws(DiscoveryError) -> Int {
        let (id, before, _) = try find(change.device)
        var after = before
        switch change.action {
        case .rename(let name): after.set("fn", to: name); after = after.published(exactNames: options.exactNames)
        case .startApp(let name): after.set("rs", to: name)
        case .set(let settings): for setting in settings { after.set(setting.key, to: setting.value) }
        case .stopApp, .withdraw, .return: break
        }
        try after.registration(interfaceIndexes: options.interfaceIndexes).validate()
        return id
    }

    /// The number of receivers published now (not withdrawn).
    public var publishedCount: Int { state.withLock { $0.receivers.count - $0.withdrawn.count } }

    /// Withdraws every receiver (goodbyes) and lets the daemon go. Safe to call twice.
    public func close() {
        publisher.close()
    }

    /// The receiver a script names: by id (without case or dashes), else by instance name.
    private func find(_ reference: String) throws(DiscoveryError) -> (Int, SimulatedReceiver, Bool) {
        let found: (Int, SimulatedReceiver, Bool)? = state.withLock { state in
            let hex = SimulatedReceiver.hexDigits(of: reference).lowercased()
            let byID = hex.count >= 12 && hex.count == reference.filter({ $0 != "-" }).count
                ? state.receivers.firstIndex { $0.normalizedID == hex } : nil
            let index = byID ?? state.receivers.firstIndex { $0.instanceName.lowercased() == reference.lowercased() }
            return index.map { ($0, state.receivers[$0], state.withdrawn.contains($0)) }
        }
        guard let found else { throw Self.bad("no receiver has the id or instance name \(SafeText.quoted(reference))") }
        return found
    }

    private static func bad(_ message: String) -> DiscoveryError { DiscoveryError(kind: .badInput, message: message) }
}
