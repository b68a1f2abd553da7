import CastDiscovery
import Foundation
import Testing

/// File names that are not UTF-8 reach the system byte for byte (issue: `--replay $'r\xff.json'`
/// was read as `r\u{FFFD}.json`, so the file was "not found").
@Suite("End to end: paths that are not UTF-8")
struct EndToEndRawPathTests {
    @Test("--replay with a file name that is not UTF-8 reads that file")
    func replay() async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.runScript(
            #"cp "$2" "$1"/$'r\xff.json' && "$CAST_SCAN" --replay "$1"/$'r\xff.json' --json"#,
            [directory.url.path, FixturePaths.livingRoom])
        #expect(result.exitCode == 0, "\(result)")
        let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        #expect((json?["devices"] as? [Any])?.isEmpty == false, "\(result)")
        // The JSON names the file as it was given, its byte shown as \xFF.
        #expect(
            (json?["scan"] as? [String: Any])?["backendReason"] as? String
                == "--replay \(directory.url.path)/r\\xFF.json", "\(result)")
    }

    @Test("a missing file that is not UTF-8: the message shows its bytes as \\xFF, never raw")
    func missing() async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.runScript(
            #""$CAST_SCAN" --replay "$1"/$'gone\xfe.json'"#, [directory.url.path])
        #expect(result.exitCode != 0 && result.exitCode != nil, "\(result)")
        #expect(result.stderr.contains(#"gone\xFE.json"#), "\(result)")
        #expect(!result.stderrData.contains(0xFE), "no raw byte on stderr")
    }

    @Test("--state and HOME with bytes that are not UTF-8: the state file lands at exactly those bytes")
    func stateFile() async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.runScript(
            #"""
            set -e
            "$CAST_SCAN" --replay "$2" --ios 17.4 --state "$1"/$'state\xff.json' >/dev/null
            test -f "$1"/$'state\xff.json'
            mkdir "$1"/$'home\xfe'
            HOME="$1"/$'home\xfe' XDG_STATE_HOME= "$CAST_SCAN" --replay "$2" --ios 17.4 >/dev/null
            find "$1"/$'home\xfe' -type f -name '*.json' | grep -c .
            find "$1" | grep -c $'\xef\xbf\xbd' || true
            """#, [directory.url.path, FixturePaths.livingRoom])
        #expect(result.exitCode == 0, "\(result)")
        // One state file under the HOME that is not UTF-8, and nothing made with U+FFFD.
        #expect(result.stdoutLines == ["1", "0"], "\(result)")
    }

    @Test("a relative --replay and --state under a working directory that is not UTF-8 name those files")
    func relativeUnderRawDirectory() async throws {
        let directory = try TestDirectory()
        let result = try await CastScanProcess.runScript(
            #"""
            set -e
            mkdir "$1"/$'cwd\xfd' && cd "$1"/$'cwd\xfd' && cp "$2" r.json
            "$CAST_SCAN" --replay r.json --ios 17.4 --state s.json --json >/dev/null
            test -f s.json && echo stored
            """#, [directory.url.path, FixturePaths.livingRoom])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdoutLines == ["stored"], "\(result)")
    }
}
