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
@testable import NotibaseServerTestSupport

/// Issue 32's guarantees end to end: a real `notibase serve` (`--sender simulated`,
/// `--webhook-allow-insecure`) sends an app's events to a Python receiver on loopback
/// (`Peers/webhook_receiver.py`, plain http) that verifies every request with the
/// `standardwebhooks` library, unchanged, and can be told to misbehave. Whatever the receiver or
/// the server does, every event arrives, in the order it happened, and the only duplicates are
/// whole batches sent again under the same `webhook-id`. In script/test's peer pass: it starts
/// Python and server processes.
///
/// Retries run on the server's own schedule (5 s after a batch's first failure): each fault hits a
/// batch's first attempt, so a test waits seconds, not minutes. A server killed mid-batch leaves
/// its lease to run out (the request's deadline twice and 30 s), which the restart waits for.
@Suite struct WebhookDeliveryPeerTests {
    typealias Expected = WebhookDeliveryPeer.Expected
    typealias World = WebhookDeliveryPeer.World

    /// A send to a device whose app was uninstalled (the simulated APNs answers 410 Unregistered),
    /// one APNs throttles once (429 TooManyRequests, then accepted) and one that takes it at
    /// once: the receiver gets the failure with the provider's reason and the device's
    /// deactivation, the retry and then the send, each once, in the order they happened.
    @Test(.timeLimit(.minutes(3))) func aDeadTokenAndAThrottledDeviceReportFailedDeactivatedRetryingThenSent() async throws {
        let (gone, throttled, fine) = (5, 6, 7)
        let world = try await World.start(arguments: ["--simulated-uninstalled", Harness.token(gone), "--simulated-throttled", Harness.token(throttled)])
        var devices: [String] = []
        for number in [gone, throttled, fine] { devices.append(try await world.server.registerDevice(world.app, number: number)) }
        let messageID = try await world.server.send(world.app, #"{"message": {"title": "Your order shipped"}, "audience": {"all": true}}"#)
        let finished = try await world.server.waitUntilCompleted(messageID, world.app)
        try #require(finished["state"].string == "completed", "\(finished.text)")
        let items = try await world.server.request("GET", "/v1/messages/\(messageID)/deliveries", key: world.app.serverKey)["items"].array
        let deliveryOf = Dictionary(uniqueKeysWithValues: items.map { ($0["deviceId"].string ?? "", $0["id"].string ?? "") })
        let deliveries = devices.map { deliveryOf[$0] ?? "" }

        let created = Expected(type: "message.created", subject: messageID), completed = Expected(type: "message.completed", subject: messageID)
        let failed = Expected(type: "delivery.failed", subject: deliveries[0]), deactivated = Expected(type: "device.deactivated", subject: devices[0])
        let retrying = Expected(type: "delivery.retrying", subject: deliveries[1]), sentAfterRetry = Expected(type: "delivery.sent", subject: deliveries[1])
        let sent = Expected(type: "delivery.sent", subject: deliveries[2])
        let expected = devices.map { Expected(type: "device.registered", subject: $0) } + [created, failed, deactivated, retrying, sentAfterRetry, sent, completed]
        try await WebhookDeliveryPeer.waitForEvents(world, expected)
        WebhookDeliveryPeer.checkStream(world, expected)
        WebhookDeliveryPeer.checkCausal(world.receiver, [
            (Expected(type: "device.registered", subject: devices[0]), failed), (Expected(type: "device.registered", subject: devices[1]), retrying),
            (created, failed), (created, retrying), (created, sent), (failed, deactivated), (retrying, sentAfterRetry),
            (deactivated, completed), (sentAfterRetry, completed), (sent, completed),
        ])
        let stream = WebhookDeliveryPeer.stream(world.receiver)
        func data(_ wanted: Expected) -> [String: Any] { stream.first { WebhookDeliveryPeer.expected($0) == wanted }?["data"] as? [String: Any] ?? [:] }
        #expect((data(failed)["details"] as? [String: Any])?["providerReason"] as? String == "Unregistered", "\(data(failed))")
        #expect(data(deactivated)["reason"] as? String == "Unregistered", "\(data(deactivated))")
        let retry = data(retrying)["details"] as? [String: Any] ?? [:]
        #expect(retry["providerReason"] as? String == "TooManyRequests" && retry["retryAt"] is String, "\(retry)")
        let device = try await world.server.request("GET", "/v1/devices/\(devices[0])", key: world.app.serverKey)
        #expect(device["active"].bool == false)
        await world.server.terminate()
    }

    /// A send to devices with buttons, a tap, an open and a retired token: every event arrives,
    /// verified, each once, in the order it happened; the tap names its button and the render its buttons.
    @Test(.timeLimit(.minutes(3))) func everyEventOfASendArrivesInOrderOnce() async throws {
        var world = try await World.start()
        let play = try await WebhookDeliveryPeer.play(&world)
        WebhookDeliveryPeer.checkStream(world, play.expected)
        WebhookDeliveryPeer.checkOrder(world, play)
        let stream = WebhookDeliveryPeer.stream(world.receiver)
        let action = stream.first { $0["type"] as? String == "delivery.action" }
        #expect(((action?["data"] as? [String: Any])?["details"] as? [String: Any])?["actionId"] as? String == "track")
        let rendered = stream.first { $0["type"] as? String == "delivery.rendered" }
        let render = ((rendered?["data"] as? [String: Any])?["details"] as? [String: Any])?["render"] as? [String: Any]
        #expect(render?["buttons"] as? [String] == ["track", "later"])
        await world.server.terminate()
    }

    /// The receiver answers 500, never answers (the 10 s deadline), closes the connection
    /// mid-answer, answers 429 with `Retry-After`: each batch is sent again, same `webhook-id`,
    /// until it is stored, and nothing behind it overtakes it. The attempts log says what happened.
    @Test(.timeLimit(.minutes(4))) func faultyAnswersLoseNothingAndKeepTheOrder() async throws {
        var world = try await World.start()
        let faults = ["500", "ok", "hang", "ok", "close-mid", "ok", "429:1", "ok"]
        try world.receiver.misbehave(faults)
        let play = try await WebhookDeliveryPeer.play(&world)
        WebhookDeliveryPeer.checkStream(world, play.expected)
        WebhookDeliveryPeer.checkOrder(world, play)
        #expect(world.receiver.faultsLeft().isEmpty, "faults left untried: \(world.receiver.faultsLeft())")
        // A failed attempt is retried as the same batch: the next request carries its webhook-id.
        let requests = world.receiver.requests(to: "/events")
        for (index, request) in requests.enumerated() where ["500", "hang", "close-mid", "429:1"].contains(request["fault"] as? String ?? "") {
            let id = (request["headers"] as? [String: String])?["webhook-id"]
            #expect(index + 1 < requests.count && (requests[index + 1]["headers"] as? [String: String])?["webhook-id"] == id,
                    "after \(request["fault"] ?? ""), the batch \(id ?? "?") was not the next request")
        }
        let attempts = try await world.server.request("GET", "/v1/webhooks/\(world.endpointID)/attempts", key: world.app.serverKey)["items"].array
        let outcomes = Set(attempts.map { "\($0["outcome"].string ?? "") \($0["status"].int.map(String.init) ?? "")" })
        #expect(outcomes.isSuperset(of: ["answered 500", "timed_out ", "failed ", "answered 429", "answered 204"]), "\(outcomes)")
        await world.server.terminate()
    }

    /// The server is killed (SIGKILL) while the receiver holds a batch unanswered, and started
    /// again on the same data: once the dead process's lease runs out, the same batch (same
    /// `webhook-id`, same events) comes again, then everything after it.
    @Test(.timeLimit(.minutes(5))) func aServerKilledMidBatchSendsTheSameBatchAfterItsRestart() async throws {
        var world = try await World.start()
        try world.receiver.misbehave(["ok", "hang"])
        var killedBatch: String?
        let play = try await WebhookDeliveryPeer.play(&world) { world, step in
            guard step == 1 else { return }
            // The message's first batch hangs; the server dies while it waits for the answer.
            let receiver = world.receiver
            try await waitUntil(timeout: .seconds(60)) { receiver.requests(to: "/events").contains { $0["fault"] as? String == "hang" } }
            killedBatch = receiver.requests(to: "/events").first { $0["fault"] as? String == "hang" }.flatMap { ($0["headers"] as? [String: String])?["webhook-id"] }
            try await world.killAndRestart()
        }
        let killed = try #require(killedBatch)
        let copies = WebhookDeliveryPeer.batches(world.receiver).filter { $0.id == killed }
        #expect(copies.count == 1, "the batch in flight at the kill was stored \(copies.count) times")
        WebhookDeliveryPeer.checkStream(world, play.expected)
        WebhookDeliveryPeer.checkOrder(world, play)
        await world.server.terminate()
    }
}
