/// Which `cast-scan` this is: its version, and the git commit it was built from.
///
/// `Scripts/build-release` (used by `make deb` and `make install`) builds from a copy of the tree
/// in which ``commit`` is replaced by `git describe --always --dirty`; a plain `swift build`
/// says "unknown".
enum BuildInfo {
    /// The release version (semantic versioning).
    static let version = "0.5.0"
    /// The commit the binary was built from.
    static let commit = "unknown"

    /// `0.5.0 (commit 1a2b3c4)`: for `--version`, `doctor` and the JSON output.
    static var description: String { "\(version) (commit \(commit))" }
}
