import Foundation
import NotibaseCore
import Testing
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
@testable import NotibaseServerTestSupport

extension PostgresNodesTests {
    typealias Expected = WebhookDeliveryPeer.Expected

    /// Two nodes on one database send an app's events to a slow receiver that verifies each batch
    /// with `standardwebhooks` (the peer suite's); the node holding a batch the receiver has not
    /// answered is killed with SIGKILL. Once its lease runs out the other node sends that batch
    /// again (same `webhook-id`, same events), then the rest: every event arrives, verified, each
    /// once after deduplication, in order, and the only duplicates are whole batches.
    @Test(.timeLimit(.minutes(5)))
    func aNodeKilledWhileSendingBatchesLosesNoEvent() async throws {
        // Some 12,000 events: more than two requests hold, however large a batch grows while the
        // endpoint is behind (5,000 events at most), so a third request is made and never answered.
        let devices = 6_000
        let directory = TemporaryDirectory()
        let url = try Self.database()
        let receiver = try await WebhookReceiver.start(plain: true)
        try receiver.slowDown(0.2)
        func node(_ number: Int) async throws -> ServerProcess {
            try await ServerProcess.start(dataDirectory: directory.path + "/data\(number)", arguments: [
                "--database", url, "--sender", "accept", "--webhook-allow-insecure", "--lease-seconds", "2", "--rate-limit-server", "0",
                "--max-body-bytes", "4194304", "--database-pool", "4",
            ], environment: WebhookDeliveryPeer.environment)  // one secret key, as every node of a deployment has: each opens the endpoint's secret
        }
        let nodes = [try await node(0), try await node(1)]
        let app = try await nodes[0].createApp()
        let endpoint = try await nodes[1].request("POST", "/v1/webhooks", key: app.serverKey, body: #"{"url": "\#(receiver.url("/events"))"}"#)
        try #require(endpoint.status == 201, "\(endpoint.text)")
        try receiver.verify(under: try #require(endpoint["secret"].string))
        // The third request is never answered: its node holds the batch in flight until it is killed.
        try receiver.misbehave(["ok", "ok", "hang"])
        try await Self.register(devices, on: nodes[0], app)
        let message = try await nodes[1].send(app, #"{"message": {"title": "To everyone"}, "audience": {"all": true}}"#)

        try await waitUntil(timeout: .seconds(120)) { receiver.requests(to: "/events").contains { $0["fault"] as? String == "hang" } }
        let hung = try #require(receiver.requests(to: "/events").first { $0["fault"] as? String == "hang" })
        let killedBatch = try #require((hung["headers"] as? [String: String])?["webhook-id"])
        let port = hung["peer_port"] as? Int ?? 0
        let sender = try #require(nodes.firstIndex { Self.holdsConnection(from: port, to: receiver.port, $0.processIdentifier) },
                                  "no node holds the unanswered batch's connection")
        await nodes[sender].kill()
        let survivor = nodes[1 - sender]

        let finished = try await survivor.waitUntilCompleted(message, app, seconds: 240)
        #expect(finished["state"].string == "completed")
        var deliveries: [JSONValue] = []
        var cursor = ""
        repeat {
            let page = try await survivor.request("GET", "/v1/messages/\(message)/deliveries?limit=1000\(cursor)", key: app.serverKey)
            deliveries += page["items"].array
            cursor = page["nextCursor"].string.map { "&cursor=" + $0 } ?? ""
        } while !cursor.isEmpty
        try #require(deliveries.count == devices)
        let created = Expected(type: "message.created", subject: message), completed = Expected(type: "message.completed", subject: message)
        var expected = [created, completed]
        var causal: [(Expected, Expected)] = []
        for delivery in deliveries {
            let registered = Expected(type: "device.registered", subject: delivery["deviceId"].string ?? "")
            let sent = Expected(type: "delivery.sent", subject: delivery["id"].string ?? "")
            expected += [registered, sent]
            causal += [(registered, sent), (created, sent), (sent, completed)]
        }
        try await WebhookDeliveryPeer.waitForEvents(receiver, expected, timeout: .seconds(180))
        WebhookDeliveryPeer.checkStream(receiver, appID: app.id, expected)
        WebhookDeliveryPeer.checkCausal(receiver, causal)
        let copies = WebhookDeliveryPeer.batches(receiver).filter { $0.id == killedBatch }
        #expect(copies.count == 1, "the batch in flight at the kill was stored \(copies.count) times")
        let batches = Set(WebhookDeliveryPeer.batches(receiver).map(\.id)).count
        print("postgres nodes: \(expected.count) events in \(batches) batches to a slow receiver, node \(sender) killed holding \(killedBatch)")
        await survivor.terminate()
    }

    /// Whether process `pid` holds the loopback TCP connection from local `port` to `remotePort`:
    /// the socket's inode in /proc/net/tcp, among the process's descriptors (Linux). The table is
    /// read to its end by hand: `String(contentsOfFile:)` stops after its first page (a /proc
    /// file has no size), where a busy machine's table does not end.
    static func holdsConnection(from port: Int, to remotePort: Int, _ pid: pid_t) -> Bool {
        guard port > 0, let file = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return false }
        let table = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        try? file.close()
        let (local, remote) = (String(format: ":%04X", port), String(format: ":%04X", remotePort))
        let sockets = Set(table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1].hasSuffix(local), fields[2].hasSuffix(remote) else { return nil }
            return "socket:[\(fields[9])]"
        })
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return descriptors.contains { sockets.contains((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "") }
    }
}
