#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What the libFuzzer targets of `Fuzz/Targets` call: their `LLVMFuzzerInitialize` and
/// `LLVMFuzzerTestOneInput`.
public enum LibFuzzerEntry {
    /// Called once before fuzzing. With `CAST_FUZZ_WRITE_SEEDS=DIR` in the environment, writes
    /// the target's seed corpus (``Seeds/seeds(for:)``, and its findings) into `DIR`, one file
    /// per input, and exits: `Scripts/fuzz run` makes each corpus so, from the one definition
    /// of the seeds that `swift test` uses too, and prints the target's `-max_len`.
    public static func initialize(_ target: FuzzTarget) -> CInt {
        if let directory = ProcessInfo.processInfo.environment["CAST_FUZZ_WRITE_SEEDS"], !directory.isEmpty {
            let inputs = Seeds.seeds(for: target) + Seeds.findings(for: target)
            for (index, input) in inputs.enumerated() {
                let name = input.name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
                let path = "\(directory)/seed-\(index)-\(String(name.suffix(80)))"
                guard ScratchFiles.write(input.bytes, to: path) else {
                    standardError("cannot write \(path)\n")
                    exit(1)
                }
            }
            print("\(target.rawValue): \(inputs.count) seeds, max_len \(target.maximumLength)")
            exit(inputs.isEmpty ? 1 : 0)
        }
        return 0
    }

    /// Checks one input; a property that fails is a crash libFuzzer records, its message
    /// starting with `property:`.
    public static func run(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try target.checkBlocking(bytes)
        } catch {
            standardError("\(error)\n")
            fatalError("\(error)")
        }
        return 0
    }

    private static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
