/// The reason the strict policy refused to make a ``CastDevice`` from a resolved service.
public struct DeviceRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The instance name of the rejected service.
    public var instanceName: String
    /// Every receiver rule the service broke, in the order they were checked.
    public var reasons: [DeviceProblem]

    /// Creates a rejection.
    public init(instanceName: String, reasons: [DeviceProblem]) {
        self.instanceName = instanceName
        self.reasons = reasons
    }

    public var description: String {
        "rejected \"\(instanceName)\": " + reasons.map(\.description).joined(separator: "; ")
    }
}
