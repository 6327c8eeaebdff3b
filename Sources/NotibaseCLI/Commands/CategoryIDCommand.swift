import FoundationEssentials
import NotibaseCore

/// `notibase category-id`: prints the `notibase-category/1` identifier of the buttons on standard
/// input (a JSON array in the `nb_buttons` shape).
enum CategoryIDCommand: Command {
    static let name = "category-id"
    static let summary = "print the category identifier of a JSON button list read from standard input"
    static let usage = "notibase category-id < buttons.json\n\n  Reads a JSON array of buttons ({\"id\", \"text\", \"options\", \"icon\", \"input\", \"url\"}) and\n  prints the identifier iOS registers them under (spec notibase-category/1)."
    static let options: [OptionSpec] = []

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        try arguments.expectPositional(atMost: 0)
        let input = io.readAll()
        let buttons: [Button]
        do {
            buttons = try JSONDecoder().decode([Button].self, from: Data(input))
        } catch {
            throw InputError(context: "the buttons on standard input", error: error)
        }
        io.writeOutput(CategoryIdentifier.derive(from: buttons) + "\n")
        return 0
    }
}
