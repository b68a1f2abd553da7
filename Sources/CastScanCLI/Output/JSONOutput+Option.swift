extension JSONOutput {
    /// `--json`, which every command that can print JSON takes.
    static let option = OptionDeclaration.flag("json", help: "print JSON (schema in docs/cli.md) instead of a table")
}
