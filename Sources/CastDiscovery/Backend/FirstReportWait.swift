/// How long the first report of a new instance waits for the instance's other copies on one
/// stack (``DiscoveryBackend/firstReportWait``), so that a device is first shown with its IPv4
/// and IPv6 addresses together rather than inserted, then updated at once.
public struct FirstReportWait: Sendable, Hashable {
    /// How long a first report waits even when no other copy is known yet: for stacks whose
    /// copies arrive on separate sockets a few milliseconds apart.
    public var grace: Duration
    /// The longest a first report waits for copies still resolving.
    public var longest: Duration

    /// Creates a wait of `grace` for copies not heard of yet, and up to `longest` for copies
    /// still resolving (at least the grace).
    public init(grace: Duration = .zero, longest: Duration = Self.standardLongest) {
        self.longest = max(longest, .zero)
        self.grace = min(max(grace, .zero), self.longest)
    }

    /// The longest wait of a stack that says nothing else: 150 ms.
    public static let standardLongest: Duration = .milliseconds(150)

    /// No grace, up to 150 ms for copies still resolving.
    public static let standard = FirstReportWait()
}
