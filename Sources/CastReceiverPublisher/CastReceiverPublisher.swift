import CastDiscovery

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
    private let state: LockedValue<State>

    /// Prepares `receivers` for `publisher`; nothing is published before ``start()``.
    ///
    /// - Throws: `DiscoveryError` of kind `badInput` when a receiver cannot be published as
    ///   it would be (a friendly name too long for its TXT string with the suffix, say).
    public init(receivers: [SimulatedReceiver], publisher: any ServicePublisher, options: Options = Options())
        throws(DiscoveryError)
    {
        try Self.validate(receivers, options: options)
        let published = receivers.map { $0.published(exactNames: options.exactNames) }
        self.publisher = publisher
        self.options = options
        state = LockedValue(State(receivers: published))
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
    /// - Throws: `DiscoveryError` of kind `badInput` for a device no receiver is, a withdrawn
    ///   one changed or withdrawn again, a published one returned, a TXT record made too long;
    ///   the daemon's refusal otherwise.
    public func apply(_ change: ReceiverChange) throws(DiscoveryError) -> Applied {
        var next = state.withLock { $0 }
        let (id, step) = try Self.plan(change, in: &next, options: options)
        switch step {
        case .update(let txt): try publisher.updateTXT(txt, id: id)
        case .withdraw: publisher.withdraw(id: id)
        case .register(let registration): try publisher.register(registration, id: id)
        case .channelOnly: break
        }
        state.withLock { $0 = next }
        return Applied(id: id, receiver: next.receivers[id], isPublished: !next.withdrawn.contains(id))
    }

    /// Checks a script's changes in order, without making them, against the receivers as
    /// `init(receivers:publisher:options:)` would publish them: each names a receiver, none
    /// changes or withdraws a withdrawn one or returns a published one, and every TXT record it
    /// makes is valid.
    ///
    /// - Throws: `DiscoveryError` of kind `badInput`, naming the change (from 1) that fails.
    public static func check(_ changes: [ReceiverChange], receivers: [SimulatedReceiver], options: Options = Options())
        throws(DiscoveryError)
    {
        var state = State(receivers: receivers.map { $0.published(exactNames: options.exactNames) })
        for (index, change) in changes.enumerated() {
            do throws(DiscoveryError) {
                _ = try plan(change, in: &state, options: options)
            } catch {
                throw bad("change \(index + 1): \(error.message)")
            }
        }
    }

    /// Checks that every receiver can be published with `options` (the suffix, the interfaces).
    ///
    /// - Throws: `DiscoveryError` of kind `badInput` naming the receiver.
    public static func validate(_ receivers: [SimulatedReceiver], options: Options = Options()) throws(DiscoveryError) {
        for receiver in receivers.map({ $0.published(exactNames: options.exactNames) }) {
            try receiver.registration(interfaceIndexes: options.interfaceIndexes).validate()
        }
    }

    /// What a change asks of the daemon.
    private enum Step {
        case update([TXTEntry])
        case withdraw
        case register(ServiceRegistration)
        /// Nothing for the daemon: only what its Cast channel says changes.
        case channelOnly
    }

    /// The change made to `state`, and what it asks of the daemon.
    private static func plan(_ change: ReceiverChange, in state: inout State, options: Options) throws(DiscoveryError)
        -> (Int, Step)
    {
        let id = try find(change.device, in: state.receivers)
        let device = SafeText.quoted(change.device)
        let withdrawn = state.withdrawn.contains(id)
        var after = state.receivers[id]
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
        case .volume(let level, let muted):
            after.volumeLevel = level
            after.isMuted = muted
        case .withdraw:
            guard !withdrawn else { throw bad("\(device) is withdrawn already") }
            state.withdrawn.insert(id)
            return (id, .withdraw)
        case .return:
            guard withdrawn else { throw bad("\(device) is published; withdraw it before it returns") }
            state.withdrawn.remove(id)
            return (id, .register(after.registration(interfaceIndexes: options.interfaceIndexes)))
        }
        guard !withdrawn else { throw bad("\(device) is withdrawn; it can change once it returns") }
        // The volume is only what its Cast channel says: nothing for the daemon.
        if case .volume = change.action {
            state.receivers[id] = after
            return (id, .channelOnly)
        }
        try after.registration(interfaceIndexes: options.interfaceIndexes).validate()
        state.receivers[id] = after
        return (id, .update(after.txt))
    }

    /// The number of receivers published now (not withdrawn).
    public var publishedCount: Int { state.withLock { $0.receivers.count - $0.withdrawn.count } }

    /// Withdraws every receiver (goodbyes) and lets the daemon go. Safe to call twice.
    public func close() {
        publisher.close()
    }

    /// The receiver a script names: by id (without case or dashes), else by instance name.
    private static func find(_ reference: String, in receivers: [SimulatedReceiver]) throws(DiscoveryError) -> Int {
        let hex = SimulatedReceiver.hexDigits(of: reference).lowercased()
        let byID =
            hex.count >= 12 && hex.count == reference.filter({ $0 != "-" }).count
            ? receivers.firstIndex { $0.normalizedID == hex } : nil
        guard
            let index = byID ?? receivers.firstIndex(where: { $0.instanceName.lowercased() == reference.lowercased() })
        else {
            throw bad("no receiver has the id or instance name \(SafeText.quoted(reference))")
        }
        return index
    }

    private static func bad(_ message: String) -> DiscoveryError { DiscoveryError(kind: .badInput, message: message) }
}
