import Foundation
import Testing

@testable import CastScanCLI

/// The watch clock: local time from the C library, as Foundation with its time zones gives it.
@Suite("TimeOfDay")
struct TimeOfDayTests {
    @Test("HH:MM:SS.mmm in local time")
    func localTime() throws {
        let style = Date.ISO8601FormatStyle(timeZone: .current).time(includingFractionalSeconds: true)
        // Foundation's minute before and after: the clock's minute is one of them.
        let before = Date().formatted(style).prefix(5)
        let text = TimeOfDay.now()
        let after = Date().formatted(style).prefix(5)
        #expect(text.wholeMatch(of: /[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}/) != nil, "\(text)")
        #expect(text.prefix(5) == before || text.prefix(5) == after, "\(text) vs \(before)/\(after)")
    }
}
