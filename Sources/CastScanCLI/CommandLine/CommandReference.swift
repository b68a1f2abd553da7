/// Every command of a declaration tree with the options its help lists: what the man page and
/// the shell completions are made from, the same walk as `--help`, so they cannot drift apart.
struct CommandReference {
    /// One command: its path from the root, its declaration and its options (as in its help).
    struct Entry {
        var chain: [CommandDeclaration]
        var path: [String] { chain.map(\.name) }
        var command: CommandDeclaration { chain[chain.count - 1] }
        var options: [OptionDeclaration] { HelpFormatter(chain: chain, width: 80).visibleOptions() }
        var usage: String { HelpFormatter(chain: chain, width: 80).usage(of: command) }
    }

    let entries: [Entry]

    /// The root and every command below it, depth first, in declaration order.
    init(root: CommandDeclaration) {
        var entries: [Entry] = []
        func walk(_ chain: [CommandDeclaration]) {
            entries.append(Entry(chain: chain))
            for subcommand in chain[chain.count - 1].subcommands { walk(chain + [subcommand]) }
        }
        walk([root])
        self.entries = entries
    }
}
