#if canImport(NotibaseSimulator)
/// `notibase demo`: the whole loop on one machine, the first thing a new user runs.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "run a server, simulated phones and a message end to end, and print the delivery log"
    static let usage = """
        notibase demo [--keep] [--console]

          Starts a server on a temporary data directory, creates an app, registers simulated iPhones
          (running the real Notibase extension) and an Android phone, sends a message with two buttons
          and an image served locally, taps a button, and prints the delivery log and what each device
          drew. --keep leaves the data directory in place. --console then keeps the server, the simulated
          phones and the data running and prints the web console's URL and the keys to sign in with,
          until Ctrl-C.
        """
    static let options: [OptionSpec] = [.flag("keep"), .flag("console")]

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        try arguments.expectPositional(atMost: 0)
        try await Demo(io: io, keepData: arguments.flag("keep"), console: arguments.flag("console")).run()
        return 0
    }
}
#endif
