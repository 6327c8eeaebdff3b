/// One `notibase` subcommand.
protocol Command {
    /// The word that selects it: `notibase <name>`.
    static var name: String { get }
    /// One line for `notibase help`.
    static var summary: String { get }
    /// The synopsis and options, printed by `--help` and after a usage error.
    static var usage: String { get }
    static var options: [OptionSpec] { get }
    /// Runs the command; returns the exit status. Throw ``UsageError`` for bad arguments (exit 2),
    /// anything else for a failure (exit 1, the error's description printed).
    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32
}
