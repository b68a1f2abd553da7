import CastDiscovery
import CastSender
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sender scenarios (`SenderScenario(parsing:file:directory:)`, what `cast-scan simulate`
/// reads), relative to `Fixtures/scenarios` so that the fixtures' replays and Info.plists load.
///
/// - Never traps; throws only `SenderScenarioError`, whose text is one line with no raw
///   control character.
/// - A scenario that loads runs to its end or to its first mismatch without trapping; the
///   mismatch's text holds no raw control character but its own line ends; a scenario that
///   passes gives one snapshot per step.
public enum SenderScenarioProperties {
    static let property = Property(target: "sender-scenario")

    public static func check(_ bytes: [UInt8]) async throws(PropertyFailure) {
        let scenario: SenderScenario
        do {
            scenario = try await SenderScenario(
                parsing: Data(bytes), file: "fuzz.json",
                directory: Fixtures.directory.appendingPathComponent("scenarios"))
        } catch {
            try property.requireNoRawControl(error.description, in: "the error")
            return
        }
        let run = scenario.run()
        if let mismatch = run.mismatch {
            try property.requireNoRawControl(mismatch.description, allowing: ["\n"], in: "the mismatch")
            try property.require(
                run.steps.count == mismatch.stepIndex + 1,
                "the run stopped after \(run.steps.count) steps at a mismatch in step \(mismatch.stepIndex)")
        } else {
            try property.require(
                run.steps.count == scenario.steps.count,
                "a passing run gave \(run.steps.count) snapshots for \(scenario.steps.count) steps")
        }
    }
}
