import CastChannel

extension SimulatedReceiver {
    /// Apps a script names by their name, with the ids their receivers have.
    static let knownApps = [
        "youtube": "233637DE", "netflix": "CA5E8412", "spotify": "CC32E753", "default media receiver": "CC1AD845",
    ]

    /// What its Cast channel answers: busy (`st=1`), the app the status text (`rs`) names in
    /// front (YouTube, Netflix and Spotify with their ids, any other name as the Default Media
    /// Receiver's id); idle, the Backdrop idle screen; the volume of ``volumeLevel`` and
    /// ``isMuted``; the active input, not standing by.
    public var receiverStatus: ReceiverStatus {
        let session = Self.sessionID(of: normalizedID)
        let application: ReceiverApplication
        if value(of: "st") == "1", let name = value(of: "rs"), !name.isEmpty {
            let id = Self.knownApps[name.lowercased()] ?? "CC1AD845"
            application = ReceiverApplication(
                appId: id, universalAppId: id, displayName: name, statusText: name, isIdleScreen: false, appType: "WEB",
                sessionId: session)
        } else {
            application = ReceiverApplication(
                appId: "E8C28D3C", universalAppId: "E8C28D3C", displayName: "Backdrop", statusText: "",
                isIdleScreen: true,
                appType: "WEB", sessionId: session)
        }
        return ReceiverStatus(
            applications: [application],
            volume: ReceiverVolume(level: volumeLevel, muted: isMuted, controlType: "attenuation", stepInterval: 0.05),
            isActiveInput: true, isStandBy: false)
    }

    /// A session id in the UUID form receivers use, from the receiver's id.
    static func sessionID(of hex: String) -> String {
        let digits = Array((hex + String(repeating: "0", count: 32)).prefix(32))
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
        return groups.joined(separator: "-")
    }
}
