import CastDiscovery
import Foundation
import Testing

@testable import CastScanCLI

/// Fixed decimals and hex without `String(format:)`, checked against it.
@Suite("NumberText")
struct NumberTextTests {
    @Test("fixed decimals are what printf's %.Nf writes", arguments: [0, 1, 2, 3])
    func fixedMatchesPrintf(digits: Int) {
        var generator = JitterGenerator(seed: UInt64(digits))
        var values: [Double] = [
            0, -0.0, 0.005, 0.015, 0.125, 1, 1.005, 1.015, 1.125, 1.5, 2.5, 9.995, 99.995, 3600, -1.125, -0.001,
        ]
        values += (0..<20_000).map { _ in Double.random(in: 0...3600, using: &generator) }
        // Values with few decimals, where printf's ties and near-ties are.
        values += (0..<20_000).map { Double($0) / 1000 }
        for value in values {
            #expect(NumberText.fixed(value, digits: digits) == String(format: "%.\(digits)f", value), "\(value)")
        }
    }

    @Test("a value too large for fixed decimals is written in full")
    func fixedOutOfRange() {
        #expect(NumberText.fixed(.infinity, digits: 2) == "inf")
        #expect(NumberText.fixed(1e300, digits: 2) == "1e+300")
    }
}
