import CastChannel
import CastDiscovery
import FoundationEssentials

/// The device-authentication verdicts of a listing's devices (`--status`), with the impostors
/// among them: each device's answer judged once, at one time.
struct DeviceAuthVerdicts: Sendable {
    private(set) var verdicts: [String: DeviceAuthVerdict] = [:]
    private(set) var impostors: [String: DeviceImpostor] = [:]

    /// The verdicts `states` holds of `devices` (each judged as its answer came).
    init(_ devices: [CastDevice], states: ReceiverStates) {
        for device in devices {
            if let verdict = states.entry(for: device.uniqueID)?.authentication { verdicts[device.uniqueID] = verdict }
        }
        impostors = DeviceImpostor.find(in: devices) { [verdicts] in verdicts[$0.uniqueID]?.authenticated }
    }

    /// `device`'s verdict; nil when it was not asked or its channel never opened.
    func verdict(for device: CastDevice) -> DeviceAuthVerdict? { verdicts[device.uniqueID] }

    /// The device `device` pretends to be.
    func impostor(_ device: CastDevice) -> DeviceImpostor? { impostors[device.uniqueID] }

    /// The AUTH cell of `device`.
    func cell(_ device: CastDevice) -> String {
        DeviceAuthText.column(verdict(for: device), impostor: impostor(device) != nil)
    }

    /// `device`'s verdict as JSON.
    func report(_ device: CastDevice) -> DeviceAuthReport? {
        verdict(for: device).map { DeviceAuthReport($0, impostorOf: impostor(device)) }
    }
}
