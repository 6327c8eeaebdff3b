import Foundation
import Synchronization
@testable import NotibaseCLI

/// Runs a `notibase` command in process with the given standard input; returns what it printed.
struct CommandResult {
    var status: Int32
    var output: String
    var error: String
}

func runCommand(_ arguments: [String], input: String = "") async -> CommandResult {
    let output = Mutex("")
    let error = Mutex("")
    let io = TerminalIO(
        readInput: { Array(input.utf8) },
        output: { text in output.withLock { $0 += text } },
        error: { text in error.withLock { $0 += text } })
    let status = await NotibaseCLI.run(["notibase"] + arguments, io: io)
    return CommandResult(status: status, output: output.withLock { $0 }, error: error.withLock { $0 })
}
