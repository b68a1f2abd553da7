import CastDiscovery
@testable import CastScanCLI
import Foundation
import Testing

@Suite struct StatusPageTests {
    @Test func namesAreEscapedForHTML() {
        #expect(
            StatusPage.escape("<script>alert('x')</script> & \"q\"")
                == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;")
        #expect(StatusPage.escape("bell\u{07}\u{1B}[31m") == "bell\\x07\\e[31m")
    }

    @Test func thePageListsDevicesAndGoneOnesAndReloads() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var fleet = Fleet(
            backend: "mdns", reason: "asked for", started: now - 3600, forgetAfter: .seconds(600), goneLimit: 10)
        fleet.list([FleetTests.device(1, name: "<b>TV</b>"), FleetTests.device(2, busy: true)], at: now - 125)
        fleet.list([FleetTests.device(1, name: "<b>TV</b>")], at: now - 30)
        fleet.backendState = .running
        let page = StatusPage.html(fleet, at: now, maxDevices: 10)
        #expect(page.contains("<meta http-equiv=\"refresh\" content=\"\(StatusPage.refreshSeconds)\">"))
        #expect(page.contains("<td class=\"name\">&lt;b&gt;TV&lt;/b&gt;</td>"))
        #expect(!page.contains("<b>TV</b>"))
        #expect(page.contains("<h2>Gone</h2>"))
        #expect(page.contains(">2 min ago</time>") && page.contains(">30 s ago</time>"))
        #expect(page.contains("<h1>1 Cast device</h1>"))
    }

    @Test(arguments: [
        (0.0, "0 s ago"), (59.9, "59 s ago"), (60, "1 min ago"), (7200, "2 h ago"), (200_000, "2 d ago"),
        (-5, "0 s ago"), (Double.nan, "-"),
    ])
    func ago(seconds: Double, text: String) {
        #expect(StatusPage.ago(seconds) == text)
    }
}
