import Testing

@testable import CastScanCLI

/// The declaration tree comes from the command types, and every path in it finds its type.
@Suite("Command tree")
struct CommandTreeTests {
    /// Every command path in the tree below `declaration`, its own first.
    static func paths(_ declaration: CommandDeclaration, prefix: [String] = []) -> [[String]] {
        let path = prefix + [declaration.name]
        return [path] + declaration.subcommands.flatMap { paths($0, prefix: path) }
    }

    @Test("every declared command is run by the type that declares it")
    func everyPathHasItsType() {
        let tree = CastScan.root.declarationTree
        let all = Self.paths(tree)
        #expect(
            all.map { $0.joined(separator: " ") } == [
                "cast-scan", "cast-scan watch", "cast-scan status", "cast-scan serve", "cast-scan publish",
                "cast-scan report", "cast-scan report send", "cast-scan report status", "cast-scan auth",
                "cast-scan auth verify", "cast-scan plist",
                "cast-scan plist check", "cast-scan plist snippet",
                "cast-scan advise", "cast-scan simulate", "cast-scan doctor",
            ])
        for path in all {
            let command = CastScan.root.command(at: path.dropFirst())
            #expect(command.declaration.name == path.last, "\(path)")
            #expect(command.declarationTree.subcommands.map(\.name) == command.subcommands.map { $0.declaration.name })
        }
    }

    @Test("a name no command has ends the walk at the command before it")
    func unknownName() {
        let stopped: any Command.Type = CastScan.root.command(at: ["plist", "nope", "check"])
        #expect(ObjectIdentifier(stopped) == ObjectIdentifier(PlistCommand.self))
        let root: any Command.Type = CastScan.root.command(at: [])
        #expect(ObjectIdentifier(root) == ObjectIdentifier(ListCommand.self))
    }
}
