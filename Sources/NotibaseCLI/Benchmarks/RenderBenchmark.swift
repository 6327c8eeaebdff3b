import Foundation
import NotibaseCore

/// `notibase bench render`: APNs payloads rendered per second on one core, for a message with every
/// field set, each with its own delivery ID. Measured against Foundation's `JSONEncoder` encoding
/// the same payload as a Codable struct, in the same run.
enum RenderBenchmark {
    static let benchmark = Benchmark(
        name: "render",
        summary: "APNs payloads rendered per second on one core, against JSONEncoder",
        usage: "notibase bench render [--count N]   (default 1,000,000; build with -c release)",
        options: [.value("count")],
        run: { arguments, io in
            let count = try arguments.integer("count", default: 1_000_000, in: 1...100_000_000)
            try run(count: count, io: io)
            return 0
        })

    static let message = Message(
        title: "Order shipped", subtitle: "Order #4242", body: "Your parcel is on its way and arrives Thursday between 9 and 12.",
        buttons: [
            Button(id: "track", text: "Track order", icon: "system:shippingbox", url: "shop://orders/4242/track"),
            Button(id: "reply", text: "Message courier", input: .init(button: "Send", placeholder: "Gate code…")),
            Button(id: "cancel", text: "Cancel order", options: [.destructive, .authenticationRequired]),
        ],
        imageURL: "https://cdn.example.com/orders/4242.jpg", url: "shop://orders/4242", sound: "default", badge: 3,
        threadID: "orders", interruptionLevel: .timeSensitive, relevanceScore: 0.75, collapseID: "order-4242", ttl: 3600,
        data: ["orderId": 4242, "express": true, "items": ["book", "pen"]])

    static func run(count: Int, io: TerminalIO) throws {
        let tokens = (0..<1024).map { index in String(repeating: String(format: "%02x", index % 256), count: 32) }
        let deliveryIDs = (0..<1024).map { _ in UUID().uuidString.lowercased() }
        let now = Date()

        // Notibase: prepared once per message, rendered per device.
        var bytes = 0
        let clock = ContinuousClock()
        let notibase = clock.measure {
            let renderer = try! APNsRenderer(message: message, topic: "com.example.shop")
            for index in 0..<count {
                let context = DeliveryContext(
                    deviceToken: tokens[index & 1023], messageID: "msg_01JDX7Q", deliveryID: deliveryIDs[index & 1023], now: now)
                bytes &+= try! renderer.render(context).body.count
            }
        }

        // The comparison: the same payload as a Codable struct through JSONEncoder.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let baselineCount = max(count / 10, 1)
        let categoryID = CategoryIdentifier.derive(from: message.buttons)
        var baselineBytes = 0
        let baseline = clock.measure {
            for index in 0..<baselineCount {
                let payload = CodablePayload(message: message, categoryID: categoryID, deliveryID: deliveryIDs[index & 1023])
                baselineBytes &+= try! encoder.encode(payload).count
            }
        }

        let perSecond = Double(count) / notibase.seconds
        let baselinePerSecond = Double(baselineCount) / baseline.seconds
        io.writeOutput("""
            render benchmark: one core, \(ProcessInfo.processInfo.processorCount) cores on the machine
              payload: \(bytes / count) bytes (every field, 3 buttons, custom data)
              Notibase APNsRenderer:  \(format(perSecond)) payloads/s  (\(format(notibase.seconds * 1e9 / Double(count))) ns each, \(count) payloads)
              JSONEncoder (Codable):  \(format(baselinePerSecond)) payloads/s  (\(format(baseline.seconds * 1e9 / Double(baselineCount))) ns each, \(baselineCount) payloads, \(baselineBytes / baselineCount) bytes)
              ratio: \(String(format: "%.1f", perSecond / baselinePerSecond))× JSONEncoder

            """)
    }

    static func format(_ value: Double) -> String {
        let rounded = Int(value.rounded())
        var digits = String(rounded)
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: index))
            index -= 3
        }
        return digits
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The APNs payload as plain Codable structs, the way a typical Swift server encodes it.
private struct CodablePayload: Encodable {
    struct Aps: Encodable {
        struct Alert: Encodable { var title: String?; var subtitle: String?; var body: String? }
        var alert: Alert
        var badge: Int?
        var sound: String?
        var threadID: String?
        var category: String?
        var mutableContent = 1
        var interruptionLevel: String?
        var relevanceScore: Double?
        enum CodingKeys: String, CodingKey {
            case alert, badge, sound, category
            case threadID = "thread-id"
            case mutableContent = "mutable-content"
            case interruptionLevel = "interruption-level"
            case relevanceScore = "relevance-score"
        }
    }
    var aps: Aps
    var buttons: [Button]
    var image: String?
    var url: String?
    var delivery: String
    var message: String
    var data: [String: JSONValue]

    init(message: Message, categoryID: String, deliveryID: String) {
        aps = Aps(
            alert: .init(title: message.title, subtitle: message.subtitle, body: message.body), badge: message.badge,
            sound: message.sound, threadID: message.threadID, category: categoryID,
            interruptionLevel: message.interruptionLevel?.rawValue, relevanceScore: message.relevanceScore)
        buttons = message.buttons
        image = message.imageURL
        url = message.url
        delivery = deliveryID
        self.message = "msg_01JDX7Q"
        data = message.data
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(aps, forKey: Key("aps"))
        try container.encode(buttons, forKey: Key("nb_buttons"))
        try container.encodeIfPresent(image, forKey: Key("nb_image"))
        try container.encodeIfPresent(url, forKey: Key("nb_url"))
        try container.encode(delivery, forKey: Key("nb_delivery"))
        try container.encode(message, forKey: Key("nb_message"))
        for (key, value) in data { try container.encode(value, forKey: Key(key)) }
    }
}
