import Foundation
import NotibaseCore
@testable import NotibaseServer
@testable import NotibaseDomain
@testable import NotibaseStore
@testable import NotibaseSQLite
@testable import NotibasePostgres
@testable import NotibaseHTTP
@testable import NotibaseOutbound
@testable import NotibaseWebhooks
@testable import NotibaseServices
@testable import NotibaseAPI
@testable import NotibaseDelivery
import NotibaseTestSupport
import Testing

/// What the webhook delivery suites over a real server share (WebhookDeliveryPeerTests, and
/// PostgresNodesTests on a cluster): a world of a server and a receiver, the events a test expects
/// and the checks of what arrived.
enum WebhookDeliveryPeer {
    /// The server's secret key, so that the test signs receipts as a phone's payload would.
    static let environment = ["NOTIBASE_SECRET_KEY": Data(Harness.secretKey).base64EncodedString()]
    static let arguments = ["--sender", "simulated", "--webhook-allow-insecure", "--rate-limit-server", "0", "--rate-limit-client", "0"]

    /// An event a test expects: its type and what it is about (a delivery, device or message ID).
    struct Expected: Hashable, CustomStringConvertible {
        let type: String
        let subject: String
        var description: String { "\(type) \(subject)" }
    }

    /// A server, a receiver verifying under the secret of the app's endpoint, and the app.
    struct World {
        var server: ServerProcess
        let receiver: WebhookReceiver
        let app: TestApp
        let endpointID: String
        let data: TemporaryDirectory
        /// What the server was started with (the suite's arguments and the test's).
        let arguments: [String]

        static func start(arguments extra: [String] = []) async throws -> World {
            let data = TemporaryDirectory("notibase-webhook-e2e")
            let receiver = try await WebhookReceiver.start(plain: true)
            let arguments = WebhookDeliveryPeer.arguments + extra
            let server = try await ServerProcess.start(dataDirectory: data.path + "/data", arguments: arguments,
                                                       environment: WebhookDeliveryPeer.environment)
            let app = try await server.createApp()
            let endpoint = try await server.request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(receiver.url("/events"))"}"#)
            try #require(endpoint.status == 201, "\(endpoint.text)")
            try receiver.verify(under: try #require(endpoint["secret"].string))
            return World(server: server, receiver: receiver, app: app, endpointID: try #require(endpoint["id"].string), data: data, arguments: arguments)
        }

        /// Kills the server with SIGKILL and starts it again on the same data.
        mutating func killAndRestart() async throws {
            await server.kill()
            server = try await ServerProcess.start(dataDirectory: data.path + "/data", arguments: arguments, environment: WebhookDeliveryPeer.environment)
        }
    }

    /// The batches the receiver stored (verified), in the order they arrived, with their events.
    struct Batch {
        let id: String
        let events: [[String: Any]]
        var eventIDs: [String] { events.map { $0["id"] as? String ?? "" } }
    }

    static func batches(_ receiver: WebhookReceiver) -> [Batch] {
        receiver.requests(to: "/events").filter { $0["verified"] as? Bool == true }.map {
            Batch(id: $0["batch"] as? String ?? "", events: $0["events"] as? [[String: Any]] ?? [])
        }
    }

    /// Each event once, in the order of the batches' first arrivals.
    static func stream(_ receiver: WebhookReceiver) -> [[String: Any]] {
        var seen = Set<String>()
        return batches(receiver).flatMap(\.events).filter { seen.insert($0["id"] as? String ?? "").inserted }
    }

    static func expected(_ event: [String: Any]) -> Expected {
        let type = event["type"] as? String ?? ""
        let data = event["data"] as? [String: Any] ?? [:]
        let key = type.hasPrefix("delivery.") ? "deliveryId" : type.hasPrefix("device.") ? "deviceId" : "messageId"
        return Expected(type: type, subject: data[key] as? String ?? "")
    }

    /// Waits until every one of `expected` arrived (verified); fails the test after `timeout`.
    static func waitForEvents(_ world: World, _ expected: [Expected], timeout: Duration = .seconds(120)) async throws {
        try await waitForEvents(world.receiver, expected, timeout: timeout)
    }

    static func waitForEvents(_ receiver: WebhookReceiver, _ expected: [Expected], timeout: Duration = .seconds(120)) async throws {
        let wanted = Set(expected)
        try await waitUntil(timeout: timeout) { wanted.isSubset(of: Set(stream(receiver).map(Self.expected))) }
        let missing = wanted.subtracting(stream(receiver).map(Self.expected))
        try #require(missing.isEmpty, "events that never arrived: \(missing)")
    }

    /// What every test asserts of what the receiver got: every request it stored verified; a
    /// `webhook-id` seen twice carried exactly the same events (duplicates are whole batches); no
    /// event in two different batches; each expected event exactly once after deduplication, and
    /// nothing else; every event of this app.
    static func checkStream(_ world: World, _ expected: [Expected]) {
        checkStream(world.receiver, appID: world.app.id, expected)
    }

    static func checkStream(_ receiver: WebhookReceiver, appID: String, _ expected: [Expected]) {
        let requests = receiver.requests(to: "/events")
        let unverified = requests.filter { ($0["fault"] as? String).map { !["500", "hang", "close-mid"].contains($0) && !$0.hasPrefix("429:") } ?? true }
            .filter { $0["verified"] as? Bool != true }
        #expect(unverified.isEmpty, "requests that did not verify: \(unverified.map { $0["failure"] ?? "" })")
        var byID: [String: [String]] = [:]
        var firstArrivals: [Batch] = []
        for batch in batches(receiver) {
            if let earlier = byID[batch.id] {
                #expect(earlier == batch.eventIDs, "the batch \(batch.id) came again with other events")
            } else {
                byID[batch.id] = batch.eventIDs
                firstArrivals.append(batch)
            }
        }
        let all = firstArrivals.flatMap(\.eventIDs)
        #expect(all.count == Set(all).count, "an event came in two different batches")
        let events = stream(receiver)
        #expect(events.map(Self.expected).sorted { $0.description < $1.description } == expected.sorted { $0.description < $1.description })
        #expect(events.allSatisfy { ($0["data"] as? [String: Any])?["appId"] as? String == appID })
    }

    /// Where `event` is in the deduplicated stream.
    static func position(_ stream: [Expected], _ type: String, _ subject: String) -> Int {
        stream.firstIndex(of: Expected(type: type, subject: subject)) ?? -1
    }

    /// A receipt as the extension posts it, signed as the delivery's payload was.
    static func receipt(_ delivery: String, _ message: String, event: String, extra: String = "") -> String {
        let signature = Signer(secretKey: Harness.secretKey).receiptSignature(deliveryID: delivery)
        return #"{"id": "\#(UUID().uuidString.lowercased())", "deliveryId": "\#(delivery)", "messageId": "\#(message)", "event": "\#(event)", "occurredAt": "\#(Timestamp.format(Date()))", "signature": "\#(signature)"\#(extra)}"#
    }

    /// What a send plays, step by step: devices register, a message with buttons goes to them, one
    /// phone draws it and its button is tapped, another is opened, and a third device's token is
    /// retired (replaced by a new one, as APNs rotates tokens: the old device is deactivated).
    /// Each step waits for its events, so each is a batch of its own (at least one); `between`
    /// runs after each step's action, before its events are awaited. Returns every event it caused, and the order that must hold.
    struct Play {
        var expected: [Expected] = []
        /// Pairs (earlier, later) that happened one after the other.
        var causal: [(Expected, Expected)] = []
        var messageID = ""
        var deliveries: [String] = []
    }

    static func play(_ world: inout World, between: (inout World, Int) async throws -> Void = { _, _ in }) async throws -> Play {
        var play = Play()
        var step = 0
        func register(_ number: Int, extra: String = "") async throws -> String {
            try await world.server.registerDevice(world.app, number: number, extra: extra)
        }
        let devices = [try await register(1), try await register(2), try await register(3)]
        play.expected += devices.map { Expected(type: "device.registered", subject: $0) }
        try await between(&world, step)
        try await waitForEvents(world, play.expected)
        step += 1

        let sent = try await world.server.request("POST", "/v1/messages", key: world.app.serverKey, body: """
            {"message": {"title": "Your order shipped", "buttons": [{"id": "track", "text": "Track"}, {"id": "later", "text": "Later"}]}, "audience": {"all": true}}
            """)
        try #require(sent.status == 202 || sent.status == 201, "\(sent.text)")
        let messageID = try #require(sent["id"].string)
        play.messageID = messageID
        var items: [JSONValue] = []
        for _ in 0..<600 {
            let message = try await world.server.request("GET", "/v1/messages/\(messageID)", key: world.app.serverKey)
            if message["state"].string == "completed" {
                items = try await world.server.request("GET", "/v1/messages/\(messageID)/deliveries", key: world.app.serverKey)["items"].array
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(items.count == 3)
        let deliveryOf = Dictionary(uniqueKeysWithValues: items.map { ($0["deviceId"].string ?? "", $0["id"].string ?? "") })
        let deliveries = devices.map { deliveryOf[$0] ?? "" }
        play.deliveries = deliveries
        let created = Expected(type: "message.created", subject: messageID), completed = Expected(type: "message.completed", subject: messageID)
        play.expected += [created, completed]
        for (device, delivery) in zip(devices, deliveries) {
            let sentEvent = Expected(type: "delivery.sent", subject: delivery)
            play.expected.append(sentEvent)
            play.causal += [(Expected(type: "device.registered", subject: device), sentEvent), (created, sentEvent), (sentEvent, completed)]
        }
        try await between(&world, step)
        try await waitForEvents(world, play.expected)
        step += 1

        let render = #", "render": {"categoryId": "nb_0123456789abcdef", "buttons": ["track", "later"], "imageAttached": false, "completion": "complete", "elapsedMilliseconds": 40}"#
        for (delivery, event, extra) in [(deliveries[0], "rendered", render), (deliveries[0], "action", #", "actionId": "track""#), (deliveries[1], "opened", "")] {
            let posted = try await world.server.request("POST", "/v1/receipts", key: world.app.clientKey, body: receipt(delivery, messageID, event: event, extra: extra))
            try #require(posted.status == 202, "\(posted.text)")
        }
        let rendered = Expected(type: "delivery.rendered", subject: deliveries[0]), action = Expected(type: "delivery.action", subject: deliveries[0])
        play.expected += [rendered, action, Expected(type: "delivery.opened", subject: deliveries[1])]
        play.causal += [(Expected(type: "delivery.sent", subject: deliveries[0]), rendered), (rendered, action), (completed, rendered)]
        try await between(&world, step)
        try await waitForEvents(world, play.expected)
        step += 1

        let replacement = try await register(4, extra: #", "previousToken": "\#(Harness.token(3))""#)
        let deactivated = Expected(type: "device.deactivated", subject: devices[2])
        play.expected += [Expected(type: "device.registered", subject: replacement), deactivated]
        play.causal += [(action, deactivated), (Expected(type: "delivery.sent", subject: deliveries[2]), deactivated)]
        try await between(&world, step)
        try await waitForEvents(world, play.expected)
        return play
    }

    static func checkOrder(_ world: World, _ play: Play) {
        checkCausal(world.receiver, play.causal)
        let deactivated = world.receiver.requests(to: "/events").flatMap { $0["events"] as? [[String: Any]] ?? [] }
            .first { $0["type"] as? String == "device.deactivated" }
        #expect((deactivated?["data"] as? [String: Any])?["reason"] as? String == "replaced by a new token")
    }

    /// Each pair's first event came before its second in the deduplicated stream.
    static func checkCausal(_ receiver: WebhookReceiver, _ causal: [(Expected, Expected)]) {
        let stream = stream(receiver).map(Self.expected)
        var positions: [Expected: Int] = [:]
        for (index, event) in stream.enumerated() where positions[event] == nil { positions[event] = index }
        for (earlier, later) in causal {
            let (a, b) = (positions[earlier], positions[later])
            #expect(a != nil && b != nil && a! < b!, "\(earlier) must come before \(later): \(stream)")
        }
    }
}
