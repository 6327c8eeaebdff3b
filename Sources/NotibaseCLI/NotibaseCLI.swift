import NotibaseCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `notibase` command line: parses arguments and hands each command to the library that does
/// the work. It holds no logic of its own beyond reading input and printing results.
package enum NotibaseCLI {
    /// Every command, in the order `notibase help` lists them.
    static var commands: [any Command.Type] {
        var commands: [any Command.Type] = [CategoryIDCommand.self, RenderCommand.self, ServeCommand.self, AdminKeyCommand.self]
        #if canImport(NotibaseSimulator)
        commands.append(PreviewCommand.self)
        commands.append(DemoCommand.self)
        #endif
        commands.append(BenchCommand.self)
        return commands
    }

    /// Runs the command named in `arguments` (the first element is the program name) and returns
    /// the process exit status: 0 on success, 1 when the command failed, 2 for a usage error.
    static func run(_ arguments: [String], io: TerminalIO = .standard) async -> Int32 {
        let words = Array(arguments.dropFirst())
        guard let name = words.first, name != "help", name != "--help", name != "-h" else {
            io.writeOutput(overview)
            return words.isEmpty ? 2 : 0
        }
        if name == "--version" {
            io.writeOutput("notibase \(NotibaseVersion.current)\n")
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            io.writeError("notibase: unknown command '\(name)'.\n\n" + overview)
            return 2
        }
        do {
            let parsed = try Arguments(Array(words.dropFirst()), spec: command.options)
            if parsed.flag("help") {
                io.writeOutput(command.usage + "\n")
                return 0
            }
            return try await command.run(parsed, io: io)
        } catch let error as UsageError {
            io.writeError("notibase \(name): \(error.message)\n\nusage: \(command.usage)\n")
            return 2
        } catch {
            io.writeError("notibase \(name): \(error)\n")
            return 1
        }
    }

    /// Runs the command line and exits the process with its status.
    package static func main(_ arguments: [String]) async -> Never {
        let status = await run(arguments)
        fflush(nil)
        exit(status)
    }

    static var overview: String {
        var text = "usage: notibase <command> [options]\n\ncommands:\n"
        let width = commands.map { $0.name.count }.max() ?? 0
        for command in commands {
            text += "  " + command.name + String(repeating: " ", count: width + 2 - command.name.count) + command.summary + "\n"
        }
        text += "\n'notibase <command> --help' describes a command's options; 'notibase --version' prints the version.\n"
        return text
    }
}
