#if canImport(NotibaseSimulator)
import Foundation
import NotibaseCore
import NotibaseSimulator

/// `notibase preview`: what iOS would draw for a payload or a message, and why anything is missing.
enum PreviewCommand: Command {
    static let name = "preview"
    static let summary = "show what iOS would draw for an APNs payload or a message, and why anything is missing"
    static let usage = """
        notibase preview [--categories FILE] [--no-extension] [--deadline SECONDS] [--allow-http-loopback] [--json] < payload.json

          Reads an APNs payload (a JSON object with "aps") or a Notibase message, renders the message as the
          server would, runs the real Notibase extension against a simulated iPhone, and prints what would be
          drawn: title, body, buttons, image, and for anything missing the reason.
            --categories FILE      categories the app registers itself: [{"identifier": "INVITE", "buttons": [...]}]
            --no-extension         the app has no Notification Service Extension
            --deadline SECONDS     the extension's budget (default 10)
            --allow-http-loopback  download http images from this machine (local testing; iOS refuses http)
            --json                 print the result as JSON
        """
    static let options: [OptionSpec] = [
        .value("categories"), .flag("no-extension"), .value("deadline"), .flag("allow-http-loopback"), .flag("json"),
    ]

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        try arguments.expectPositional(atMost: 0)
        var options = Preview.Options()
        options.withExtension = !arguments.flag("no-extension")
        options.allowsLoopbackHTTP = arguments.flag("allow-http-loopback")
        options.deadline = .seconds(try arguments.integer("deadline", default: 10, in: 1...30))
        if let path = arguments.value("categories") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("--categories: cannot read \(path)")
            }
            do {
                options.appCategories = try JSONDecoder().decode([AppCategory].self, from: data)
            } catch {
                throw InputError(context: "the categories in \(path)", error: error)
            }
        }
        let input = io.readAll()
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: Data(input))
        } catch {
            throw InputError(context: "standard input", error: error)
        }
        guard case .object(let members) = document else {
            throw InputError(context: "standard input", problem: DecodingProblem(field: "", message: "expected a JSON object: an APNs payload or a message"))
        }
        let preview = Preview(options: options)
        let result: PreviewResult
        if members["aps"] != nil {
            result = await preview.run(payload: document, payloadBytes: nil)
        } else {
            let message: Message
            do {
                message = try JSONDecoder().decode(Message.self, from: Data(input))
            } catch {
                throw InputError(context: "the message on standard input (no \"aps\", so it is read as a Notibase message)", error: error)
            }
            result = try await preview.run(message: message)
        }
        if arguments.flag("json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            io.writeOutput(String(decoding: try encoder.encode(result), as: UTF8.self) + "\n")
        } else {
            io.writeOutput(result.text)
        }
        return 0
    }
}
#endif
