import CastChannel
import Testing

@Suite("RECEIVER_STATUS, read liberally")
struct ReceiverMessageTests {
    @Test("the protocol's example: every field typed")
    func example() throws {
        let json = #"""
            {"type": "RECEIVER_STATUS", "requestId": 7, "status": {
              "applications": [{"appId": "CC1AD845", "displayName": "Default Media Receiver",
                "statusText": "Casting", "isIdleScreen": false, "sessionId": "s-1", "transportId": "t-1",
                "namespaces": [{"name": "urn:x-cast:com.google.cast.media"}], "appType": "WEB",
                "universalAppId": "CC1AD845", "iconUrl": "x", "launchedFromCloud": false}],
              "volume": {"controlType": "attenuation", "level": 0.44999998807907104, "muted": false, "stepInterval": 0.05},
              "isActiveInput": true, "isStandBy": false, "userEq": {}}}
            """#
        let message = try ReceiverMessage(json: json)
        #expect(message.type == "RECEIVER_STATUS")
        #expect(message.requestId == 7)
        let status = try #require(message.status)
        #expect(
            status.applications == [
                ReceiverApplication(
                    appId: "CC1AD845", universalAppId: "CC1AD845", displayName: "Default Media Receiver",
                    statusText: "Casting",
                    isIdleScreen: false, appType: "WEB", sessionId: "s-1")
            ])
        #expect(
            status.volume
                == ReceiverVolume(
                    level: 0.44999998807907104, muted: false, controlType: "attenuation", stepInterval: 0.05))
        #expect(status.isActiveInput == true)
        #expect(status.isStandBy == false)
        #expect(status.runningApplication?.appId == "CC1AD845")
    }

    @Test("an idle speaker: no apps, no standby, keys in another order")
    func idle() throws {
        let message = try ReceiverMessage(
            json: #"{"status":{"volume":{"muted":true,"level":1}},"requestId":0,"type":"RECEIVER_STATUS"}"#)
        #expect(message.status == ReceiverStatus(volume: ReceiverVolume(level: 1, muted: true)))
        #expect(message.status?.runningApplication == nil)
    }

    @Test("wrong types, values out of range, a bad app among good ones: each left out alone")
    func wrongTypes() throws {
        let json = #"""
            {"type": 5, "requestId": "7", "status": {
              "applications": [3, {"appId": 12, "displayName": "TV"}, {"appId": "A", "isIdleScreen": "no"}],
              "volume": {"level": 1.5, "muted": "yes", "stepInterval": -0.1, "controlType": "master"},
              "isActiveInput": "true", "isStandBy": null}}
            """#
        let message = try ReceiverMessage(json: json)
        #expect(message.type == nil)
        #expect(message.requestId == nil)
        #expect(
            message.status?.applications == [ReceiverApplication(displayName: "TV"), ReceiverApplication(appId: "A")])
        #expect(message.status?.volume == ReceiverVolume(controlType: "master"))
        #expect(message.status?.isActiveInput == nil)
        #expect(message.status?.isStandBy == nil)
    }

    @Test("a whole-number request id written as 7.0 is 7; a fraction is none")
    func requestIds() throws {
        #expect(try ReceiverMessage(json: #"{"requestId": 7.0}"#).requestId == 7)
        #expect(try ReceiverMessage(json: #"{"requestId": 7.5}"#).requestId == nil)
        #expect(try ReceiverMessage(json: #"{"requestId": 1e300}"#).requestId == nil)
    }

    @Test("at most 16 apps are kept")
    func manyApps() throws {
        let apps = Array(repeating: #"{"appId":"A"}"#, count: 1000).joined(separator: ",")
        let message = try ReceiverMessage(json: #"{"status":{"applications":[\#(apps)]}}"#)
        #expect(message.status?.applications?.count == ReceiverStatus.maximumApplications)
    }

    @Test("text that is not JSON, JSON that is not an object, nesting 10,000 deep: a protocol error")
    func notJSON() {
        for text in ["", "PING", "[1,2]", "\"x\"", "{\"type\":", String(repeating: "[", count: 10_000)] {
            #expect { try ReceiverMessage(json: text) } throws: { ($0 as? CastChannelError)?.code == .protocol }
        }
    }

    @Test("hostile text is kept as sent (output escapes it, as it does TXT values)")
    func hostileText() throws {
        let message = try ReceiverMessage(json: #"{"status":{"applications":[{"displayName":"\u001b[2J\u202eevil"}]}}"#)
        #expect(message.status?.applications?.first?.displayName == "\u{1B}[2J\u{202E}evil")
    }
}
