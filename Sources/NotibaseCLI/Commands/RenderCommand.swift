import FoundationEssentials
import NotibaseCore

/// `notibase render --platform ios|android`: prints the provider request for a message read from
/// standard input, exactly as the server would send it.
enum RenderCommand: Command {
    static let name = "render"
    static let summary = "print the APNs or FCM request for a message JSON read from standard input"
    static let usage = """
        notibase render --platform ios|android [--token T] [--topic BUNDLE_ID] [--message-id ID] [--delivery-id ID] [--now RFC3339] [--json] < message.json

          Validates the message, then prints the request: the request line, the headers, a blank line
          and the exact body bytes. --json prints {"method", "path", "headers", "body"} instead.
          Warnings go to standard error; errors exit with status 1.
        """
    static let options: [OptionSpec] = [
        .value("platform"), .value("token"), .value("topic"), .value("message-id"), .value("delivery-id"), .value("now"), .flag("json"),
    ]

    static func run(_ arguments: Arguments, io: TerminalIO) async throws -> Int32 {
        try arguments.expectPositional(atMost: 0)
        guard let platformName = arguments.value("platform") else {
            throw UsageError("--platform is required: ios or android")
        }
        guard let platform = Platform(rawValue: platformName) else {
            throw UsageError("--platform must be ios or android, not '\(platformName)'")
        }
        var now = Date()
        if let text = arguments.value("now") {
            guard let date = Timestamp.parse(text) else { throw UsageError("--now must be \(Timestamp.expected), not '\(text)'") }
            now = date
        }
        let message: Message
        do {
            message = try JSONDecoder().decode(Message.self, from: Data(io.readAll()))
        } catch {
            throw InputError(context: "the message on standard input", error: error)
        }
        for warning in message.validate(for: [platform]) where warning.severity == .warning {
            io.writeError("warning: \(warning)\n")
        }
        let context = DeliveryContext(
            deviceToken: arguments.value("token") ?? (platform == .ios ? String(repeating: "0", count: 64) : "fcm-registration-token"),
            messageID: arguments.value("message-id"),
            deliveryID: arguments.value("delivery-id"),
            now: now)
        let request = try ProviderRequestPrinter.render(message, for: platform, topic: arguments.value("topic"), context: context)
        io.writeOutput(arguments.flag("json") ? request.json : request.text)
        return 0
    }
}

/// A rendered request in a printable form.
struct ProviderRequestPrinter {
    var method = "POST"
    var path: String
    var headers: [HTTPHeader]
    var body: [UInt8]

    static func render(_ message: Message, for platform: Platform, topic: String?, context: DeliveryContext) throws -> ProviderRequestPrinter {
        switch platform {
        case .ios:
            let request = try APNsRenderer(message: message, topic: topic).render(context)
            return ProviderRequestPrinter(path: request.path, headers: request.headers, body: request.body)
        case .android:
            let request = try FCMRenderer(message: message).render(context)
            return ProviderRequestPrinter(
                path: "/v1/projects/PROJECT_ID/messages:send",
                headers: [HTTPHeader("content-type", "application/json; charset=utf-8")], body: request.body)
        }
    }

    var text: String {
        var text = "\(method) \(path)\n"
        for header in headers { text += "\(header.name): \(header.value)\n" }
        text += "\n" + String(decoding: body, as: UTF8.self) + "\n"
        return text
    }

    var json: String {
        var headerObject: [String: JSONValue] = [:]
        for header in headers { headerObject[header.name] = .string(header.value) }
        let bodyValue = (try? JSONDecoder().decode(JSONValue.self, from: Data(body))) ?? .string(String(decoding: body, as: UTF8.self))
        let document: JSONValue = [
            "method": .string(method), "path": .string(path), "headers": .object(headerObject), "body": bodyValue,
            "bodyBytes": .integer(body.count),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(document)) ?? Data(), as: UTF8.self) + "\n"
    }
}
