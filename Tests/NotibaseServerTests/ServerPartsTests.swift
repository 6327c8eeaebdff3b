import Foundation
import NotibaseCore
import NotibaseTestSupport
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
@testable import NotibaseServerTestSupport

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

    /// Every harness has a handoff now; what a post writes while it is full waits unclaimed in the
    /// store, for any worker's claim, and a sign-out still stops it there (the path the sign-out
    /// tests took without a handoff).
    @Test func aPostThatFindsTheHandoffFullWaitsInTheStoreAndASignOutStillStopsIt() async throws {
        let sender = ScriptedSender()
        let harness = try await Harness(sender: sender, handoff: Handoff(workers: 1, batchSize: 1))
        let app = try await harness.createApp()
        let signedIn = #", "externalUserId": "alice""#
        let signedOut = try await harness.registerDevice(app, number: 1, extra: signedIn)
        let stillSignedIn = try await harness.registerDevice(app, number: 2, extra: signedIn)
        let other = try await harness.registerDevice(app, number: 3)
        _ = try await harness.send(app, #"{"message": {"title": "Hi"}, "audience": {"deviceIds": ["\#(other)"]}}"#)
        #expect(harness.parts.handoff.room == 0)
        let toAlice = try await harness.send(app, #"{"message": {"title": "Your order shipped"}, "audience": {"externalUserIds": ["alice"]}}"#)
        // Written unclaimed (a claim counts an attempt), for any worker's claim.
        let written = await harness.request("GET", "/v1/messages/\(toAlice)/deliveries", key: app.serverKey)["items"].array
        #expect(written.count == 2 && written.allSatisfy { $0["attempts"].int == 0 }, "\(written)")

        let signOut = #"{"platform": "ios", "token": "\#(Harness.token(1))"}"#
        #expect(await harness.request("POST", "/v1/devices/sign-out", key: app.clientKey, body: signOut).status == 204)
        try await harness.deliverDue()
        let log = await harness.request("GET", "/v1/messages/\(toAlice)/deliveries", key: app.serverKey)["items"].array
        let states = Dictionary(log.map { ($0["deviceId"].string ?? "", $0["state"].string ?? "") }, uniquingKeysWith: { $1 })
        #expect(states == [signedOut: "cancelled", stillSignedIn: "sent"])
        #expect(sender.pushes.count == 2)
    }
}
