/// One change of a published receiver, as a script line says it: the receiver's next
/// announcement (a TXT update), or its going and coming back.
public struct ReceiverChange: Sendable, Hashable {
    /// What changes.
    public enum Action: Sendable, Hashable {
        /// A new friendly name (`fn`).
        case rename(String)
        /// An app starts: busy (`st=1`), its name as the status text (`rs`).
        case startApp(String)
        /// The app stops: idle (`st=0`, `rs` empty).
        case stopApp
        /// TXT values set as given (`key=value`), each where its key stands.
        case set([Setting])
        /// The volume its Cast channel says (0 to 1), muted or not; no TXT change.
        case volume(level: Double, muted: Bool)
        /// The receiver goes, with goodbyes.
        case withdraw
        /// A withdrawn receiver comes back.
        case `return`
    }

    /// A TXT value a change sets.
    public struct Setting: Sendable, Hashable {
        /// The TXT key (`rs`).
        public var key: String
        /// Its new value.
        public var value: String
        /// Creates a setting.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// When, from the start of publishing; nil: right after the change before it (at once
    /// for a line read from standard input).
    public var at: Duration?
    /// The receiver: its id (without case or dashes) or its instance name.
    public var device: String
    /// What changes.
    public var action: Action

    /// Creates a change.
    public init(at: Duration? = nil, device: String, action: Action) {
        self.at = at
        self.device = device
        self.action = action
    }
}
