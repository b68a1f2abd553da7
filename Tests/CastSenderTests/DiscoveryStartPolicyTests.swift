import CastDiscovery
import CastSender
import Testing

@Suite("DiscoveryStartPolicy")
struct DiscoveryStartPolicyTests {
    /// One row of the decision table (reference section 5), played over two launches.
    struct Row: Sendable, CustomStringConvertible {
        var platform: SenderPlatform
        var disableAutostart: Bool
        var firstTapFlag: Bool
        /// Launch 1: discovery at launch.
        var firstLaunchDiscovers: Bool
        /// Launch 1: the first tap shows the interstitial (and dismissing it starts discovery).
        var tapShowsInterstitial: Bool
        /// Launch 2: discovery at launch.
        var laterLaunchDiscovers: Bool

        var description: String {
            "\(platform), autostart disabled \(disableAutostart), first-tap flag \(firstTapFlag)"
        }

        var options: CastOptions {
            CastOptions(
                disableDiscoveryAutostart: disableAutostart, startDiscoveryAfterFirstTapOnCastButton: firstTapFlag,
                platform: platform)
        }
    }

    static let rows: [Row] = {
        var rows: [Row] = []
        // iOS < 14 (and Linux, which has no permission either), autostart on: at init, no prompt.
        for platform in [SenderPlatform.iOS(major: 13, minor: 7), .linux] {
            for flag in [false, true] {
                rows.append(
                    Row(
                        platform: platform, disableAutostart: false, firstTapFlag: flag,
                        firstLaunchDiscovers: true, tapShowsInterstitial: false, laterLaunchDiscovers: true))
            }
        }
        // Autostart disabled, any platform and flag: nothing until startDiscovery.
        for platform in [SenderPlatform.iOS(major: 13), .iOS(major: 14), .iOS(major: 17, minor: 4), .linux] {
            for flag in [false, true] {
                rows.append(
                    Row(
                        platform: platform, disableAutostart: true, firstTapFlag: flag,
                        firstLaunchDiscovers: false, tapShowsInterstitial: false, laterLaunchDiscovers: false))
            }
        }
        // iOS >= 14, autostart on.
        for platform in [SenderPlatform.iOS(major: 14), .iOS(major: 18)] {
            rows.append(
                Row(
                    platform: platform, disableAutostart: false, firstTapFlag: true,
                    firstLaunchDiscovers: false, tapShowsInterstitial: true, laterLaunchDiscovers: true))
            rows.append(
                Row(
                    platform: platform, disableAutostart: false, firstTapFlag: false,
                    firstLaunchDiscovers: true, tapShowsInterstitial: false, laterLaunchDiscovers: true))
        }
        return rows
    }()

    @Test("decision table: first launch, first tap, background/foreground, later launch", arguments: rows)
    func decisionTable(row: Row) {
        let permission = row.platform.requiresLocalNetworkPermission
        // Launch 1, nothing stored.
        var session = DiscoveryStartPolicy(options: row.options, discoveryHasStartedOnce: false)
        #expect(session.handle(.castButtonTapped) == .init(shouldDiscover: false), "nothing before launch")
        let launch = session.handle(.appLaunched)
        #expect(launch.shouldDiscover == row.firstLaunchDiscovers)
        #expect(launch.rememberDiscoveryStarted == row.firstLaunchDiscovers)
        #expect(launch.localNetworkPromptExpected == (row.firstLaunchDiscovers && permission))
        #expect(!launch.showInterstitial)

        let tap = session.handle(.castButtonTapped)
        #expect(tap.showInterstitial == row.tapShowsInterstitial)
        if row.tapShowsInterstitial {
            #expect(!tap.shouldDiscover, "the interstitial comes before discovery")
            #expect(session.handle(.castButtonTapped) == .init(shouldDiscover: false), "shown once")
            let dismissed = session.handle(.interstitialDismissed)
            #expect(
                dismissed
                    == .init(shouldDiscover: true, rememberDiscoveryStarted: true, localNetworkPromptExpected: true))
        } else {
            #expect(tap.shouldDiscover == row.firstLaunchDiscovers, "a tap changes nothing")
            #expect(!tap.rememberDiscoveryStarted)
        }
        if row.disableAutostart {
            #expect(session.handle(.interstitialDismissed).shouldDiscover == false)
            let start = session.handle(.startDiscoveryRequested)
            #expect(
                start
                    == .init(
                        shouldDiscover: true, rememberDiscoveryStarted: true, localNetworkPromptExpected: permission))
        }
        // Discovery runs now in every row; background stops it, foreground starts it again.
        #expect(session.shouldDiscover)
        #expect(session.handle(.enteredBackground) == .init(shouldDiscover: false))
        #expect(session.handle(.castButtonTapped) == .init(shouldDiscover: false))
        #expect(session.handle(.enteredForeground) == .init(shouldDiscover: true))
        #expect(session.discoveryHasStartedOnce)

        // Launch 2, with the fact remembered.
        var later = DiscoveryStartPolicy(options: row.options, discoveryHasStartedOnce: true)
        let relaunch = later.handle(.appLaunched)
        #expect(relaunch == .init(shouldDiscover: row.laterLaunchDiscovers))
        #expect(!later.handle(.castButtonTapped).showInterstitial)
    }

    @Test("iOS 14+, first-tap flag: a launch without a tap leaves the next launch idle too")
    func noTapNoMemory() {
        let options = CastOptions(platform: .iOS(major: 16))
        var first = DiscoveryStartPolicy(options: options, discoveryHasStartedOnce: false)
        #expect(first.handle(.appLaunched) == .init(shouldDiscover: false))
        #expect(first.handle(.enteredBackground) == .init(shouldDiscover: false))
        #expect(first.handle(.enteredForeground) == .init(shouldDiscover: false))
        #expect(!first.discoveryHasStartedOnce)
        var second = DiscoveryStartPolicy(options: options, discoveryHasStartedOnce: first.discoveryHasStartedOnce)
        #expect(second.handle(.appLaunched) == .init(shouldDiscover: false))
        #expect(second.handle(.castButtonTapped).showInterstitial)
    }

    @Test("an explicit start skips the interstitial; an explicit stop holds until autostart on foreground")
    func explicitStartStop() {
        var session = DiscoveryStartPolicy(
            options: CastOptions(platform: .iOS(major: 15)), discoveryHasStartedOnce: false)
        _ = session.handle(.appLaunched)
        #expect(
            session.handle(.startDiscoveryRequested)
                == .init(shouldDiscover: true, rememberDiscoveryStarted: true, localNetworkPromptExpected: true))
        #expect(!session.handle(.castButtonTapped).showInterstitial)
        #expect(session.handle(.stopDiscoveryRequested) == .init(shouldDiscover: false))
        #expect(session.handle(.castButtonTapped) == .init(shouldDiscover: false))
        _ = session.handle(.enteredBackground)
        #expect(session.handle(.enteredForeground) == .init(shouldDiscover: true), "autostart applies now")

        var manual = DiscoveryStartPolicy(
            options: CastOptions(disableDiscoveryAutostart: true, platform: .linux), discoveryHasStartedOnce: true)
        _ = manual.handle(.appLaunched)
        _ = manual.handle(.startDiscoveryRequested)
        _ = manual.handle(.stopDiscoveryRequested)
        _ = manual.handle(.enteredBackground)
        #expect(manual.handle(.enteredForeground) == .init(shouldDiscover: false), "no autostart: stays stopped")
        _ = manual.handle(.startDiscoveryRequested)
        _ = manual.handle(.enteredBackground)
        #expect(manual.handle(.enteredForeground) == .init(shouldDiscover: true), "resumes what the app started")
    }

    @Test("inputs that make no sense change nothing")
    func ignoredInputs() {
        var session = DiscoveryStartPolicy(
            options: CastOptions(platform: .iOS(major: 14)), discoveryHasStartedOnce: false)
        for input in DiscoveryStartPolicy.Input.allCases
        where input != .appLaunched && input != .stopDiscoveryRequested
            && input != .startDiscoveryRequested
        {
            #expect(session.handle(input) == .init(shouldDiscover: false), "\(input) before launch")
        }
        #expect(session.phase == .notLaunched)
        _ = session.handle(.appLaunched)
        #expect(session.handle(.appLaunched) == .init(shouldDiscover: false))
        #expect(session.handle(.enteredForeground) == .init(shouldDiscover: false))
        #expect(session.handle(.interstitialDismissed) == .init(shouldDiscover: false))
    }
}
