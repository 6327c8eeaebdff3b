import Foundation
import NotibaseCore
import NotibaseTestSupport
import Testing
@testable import NotibaseServer

/// One wiring (``ServerParts``): the harness runs what `notibase serve` runs, so a post in a test
/// takes the path it takes on a server: its deliveries handed to this node's workers, the workers
/// and the fan-out woken by the same signals they wait on.
@Suite("Server parts")
struct ServerPartsTests {
    @Test func aPostsDeliveryIsHandedToTheWorkersAndWakesThem() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        let device = try await harness.registerDevice(app, number: 1)
        let parts = harness.parts
        let woken = parts.signals.delivery.generation
        let id = try await harness.send(app, #"{"message": {"title": "Your code"}, "audience": {"deviceIds": ["\#(device)"]}}"#)

        #expect(parts.signals.delivery.generation > woken, "the workers were not woken")
        #expect(parts.handoff.room == parts.handoff.capacity - 1, "the post's delivery was not handed to this node's workers")
        let now = Int(harness.time.now.timeIntervalSince1970 * 1000)
        #expect(try await harness.store.claimDeliveries(now: now + 1, lease: 30_000, limit: 10).isEmpty, "written unclaimed")
        #expect(try await harness.worker.runOnce() == 1)
        #expect(await harness.request("GET", "/v1/messages/\(id)", key: app.serverKey)["counts"]["byState"]["sent"].int == 1)
    }

    @Test func aLargerAudienceWakesTheFanOutWhichHandsItsBatchOver() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp()
        try await harness.registerDevices(FanOut.atOnceAudience + 1, in: app)
        let parts = harness.parts
        let woken = parts.signals.fanOut.generation
        let reply = await harness.request("POST", "/v1/messages", key: app.serverKey, body: #"{"message": {"title": "Digest"}, "audience": {"all": true}}"#)
        #expect(reply.status == 202 && reply["state"].string == "scheduled")
        #expect(parts.signals.fanOut.generation > woken, "the fan-out was not woken")

        let delivering = parts.signals.delivery.generation
        #expect(try await harness.fanOut.runRound().written == FanOut.atOnceAudience + 1)
        #expect(parts.signals.delivery.generation > delivering, "the fan-out did not wake the workers")
        #expect(parts.handoff.room == parts.handoff.capacity - (FanOut.atOnceAudience + 1), "the fan-out's batch was not handed over")
    }
}
