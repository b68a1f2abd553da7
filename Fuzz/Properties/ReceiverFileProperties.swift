import CastChannel
import CastDiscovery
import CastReceiverPublisher

/// Receiver (device) files (`ReceiverFile(path:)`, what `cast-scan publish` reads), the input
/// written to a file beside a link to `Fixtures/devices` (so `../devices/x.json` entries load).
///
/// - Never traps; throws only `ReceiverFileError`, whose text holds no raw control character.
/// - What loads checks again as loaded (`ReceiverFile(checking:)`); each receiver's registration
///   is valid and its TXT record can be written; the publisher's own check throws only
///   `DiscoveryError`, with no raw control character in its text.
/// - The device a sender would make of each receiver never throws under the lenient policy;
///   cast-scan's JSON and table for it hold no raw control character but their line ends.
/// - Each receiver's status (what its Cast channel answers) reads back as the same status.
public enum ReceiverFileProperties {
    static let property = Property(target: "receiver-file")

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        try ScratchFiles.withFile(bytes, named: "receivers.json") { (path) throws(PropertyFailure) in
            let file: ReceiverFile
            do throws(ReceiverFileError) {
                file = try ReceiverFile(path: path)
            } catch {
                try property.requireNoRawControl(error.description, in: "the error")
                return
            }
            do {
                _ = try ReceiverFile(checking: file.receivers, path: path)
            } catch {
                throw property.fail("the loaded receivers do not check again: \(error)")
            }
            do throws(DiscoveryError) {
                try CastReceiverPublisher.validate(file.receivers)
            } catch {
                try property.requireNoRawControl(error.description, in: "the publisher's error")
            }
            for receiver in file.receivers {
                try check(receiver)
            }
        }
    }

    static func check(_ receiver: SimulatedReceiver) throws(PropertyFailure) {
        let registration = receiver.registration()
        do {
            try registration.validate()
        } catch {
            throw property.fail("a loaded receiver's registration is not valid: \(error)")
        }
        let record = TXTRecord(entries: receiver.txt)
        do {
            _ = try record.wireFormat()
        } catch {
            throw property.fail("a loaded receiver's TXT record cannot be written: \(error)")
        }
        let device = try TXTRecordProperties.lenientDevice(
            TXTRecordProperties.service(instanceName: receiver.instanceName, port: receiver.port, txt: record),
            property: property)
        try DeviceOutputProperties.check(device, property: property)
        let status = receiver.receiverStatus
        let json = "{\"type\":\"RECEIVER_STATUS\",\"requestId\":0,\"status\":\(status.jsonText)}"
        do {
            let message = try ReceiverMessage(json: json)
            try property.require(
                message.status == status,
                "the receiver's status reads back as \(String(describing: message.status)), not \(status)")
        } catch let failure as PropertyFailure {
            throw failure
        } catch {
            throw property.fail("the receiver's status JSON cannot be read: \(error)")
        }
    }
}
