extension Command {
    /// The declaration of this command with those of every command below it: the input of
    /// ``ArgumentParser``, the help and anything else generated from the command line's shape.
    static var declarationTree: CommandDeclaration {
        var tree = declaration
        tree.subcommands = subcommands.map { $0.declarationTree }
        return tree
    }

    /// The command that `path` names below this one (the subcommand names after this
    /// command's, as in `ParsedArguments.commandPath.dropFirst()`); a name no subcommand has
    /// ends the walk at the command before it.
    static func command(at path: ArraySlice<String>) -> any Command.Type {
        guard let name = path.first, let next = subcommands.first(where: { $0.declaration.name == name }) else {
            return self
        }
        return next.command(at: path.dropFirst())
    }
}
