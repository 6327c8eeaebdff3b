#if canImport(NotibaseSimulator)
/// `notibase demo`: the whole loop on one machine, the first thing a new user runs.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "run a server, simulated phones and a message end to end, and print the delivery log"
    static let usage = """
        notibase demo [--keep]

          Starts a server on a temporary data directory, creates an app, registers simulated iPhones
          (running the real Notibase extension) and an Android phone, sends a message with two buttons
          and an image served locally, taps a button, and prints the delivery log and what each device
          drew. --keep leaves the data directory in place.
        """
    static let options: [OptionSpec] = [.flag("keep")]

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        try arguments.expectPositional(atMost: 0)
        try await Demo(io: io, keepData: arguments.flag("keep")).run()
        return 0
    }
}
#endif
