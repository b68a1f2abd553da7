/// The namespaces and ids of the Cast channel a sender that asks for status uses.
public enum CastNamespace {
    /// Opening and closing the virtual connection (`CONNECT`, `CLOSE`).
    public static let connection = "urn:x-cast:com.google.cast.tp.connection"
    /// Keeping it alive (`PING`, `PONG`).
    public static let heartbeat = "urn:x-cast:com.google.cast.tp.heartbeat"
    /// Device authentication: the sender's challenge, the receiver's signed answer (BINARY).
    public static let deviceAuth = "urn:x-cast:com.google.cast.tp.deviceauth"
    /// The receiver's own messages (`GET_STATUS`, `RECEIVER_STATUS`).
    public static let receiver = "urn:x-cast:com.google.cast.receiver"

    /// The id this package sends from.
    public static let senderID = "sender-0"
    /// The receiver's platform, to which CONNECT and GET_STATUS go.
    public static let receiverID = "receiver-0"
    /// The destination of a broadcast.
    public static let broadcastID = "*"
}
