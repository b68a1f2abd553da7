import Testing

@testable import CastScanCLI

/// The generated man page's sections around the commands.
@Suite("Man page")
struct ManPageTests {
    @Test("the sections in the usual order, FILES between ENVIRONMENT and EXAMPLES")
    func sections() {
        let headings = lines().filter { $0.hasPrefix(".SH ") }
        #expect(
            headings == [
                ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH COMMANDS", ".SH EXIT STATUS",
                ".SH ENVIRONMENT", ".SH FILES", ".SH EXAMPLES", ".SH SEE ALSO",
            ])
    }

    @Test("FILES names the packaged examples, the service's options file and its unit, each with its use")
    func files() throws {
        let all = lines()
        let start = try #require(all.firstIndex(of: ".SH FILES"))
        let end = try #require(all.firstIndex(of: ".SH EXAMPLES"))
        let section = Array(all[(start + 1)..<end])
        #expect(section.count == 9, "three entries of .TP, path, meaning: \(section)")
        let paths = stride(from: 0, to: section.count - 1, by: 3).map { (section[$0], section[$0 + 1]) }
        #expect(paths.map(\.0) == [".TP", ".TP", ".TP"])
        #expect(
            paths.map(\.1) == [
                "\\fI/usr/share/doc/cast\\-scan/examples/\\fR",
                "\\fI/etc/default/cast\\-scan\\fR",
                "\\fI/lib/systemd/system/cast\\-scan.service\\fR",
            ])
        let meanings = stride(from: 2, to: section.count, by: 3).map { section[$0] }
        #expect(meanings.count == 3 && meanings.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") })
        #expect(meanings.first?.contains("prometheus/") == true, "\(meanings)")
        #expect(meanings.dropFirst().first?.contains("CAST_SCAN_OPTIONS") == true, "\(meanings)")
        #expect(meanings.last?.contains("systemctl enable \\-\\-now cast\\-scan") == true, "\(meanings)")
    }

    private func lines() -> [String] {
        ManPage.text(root: CastScan.root.declarationTree).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
    }
}
