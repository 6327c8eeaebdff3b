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
@testable import NotibaseServerTestSupport

/// What every backend guarantees for an idempotency key's request digest: the same digest (or
/// none on either side) replays, another is refused and stores nothing, on both ways a message is
/// stored; a key past its window stores the new request's digest.
extension StorageContractTests {
    func keyed(_ app: String, id: String, now: Int = 100, digest: String?) throws -> NewMessage {
        var message = try NewMessage(
            id: id, appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: .devices(["\(app)-dev-1"]),
            sendAt: now, audienceSize: 0, createdAt: now)
        message.requestDigest = digest
        return message
    }

    @Test func anIdempotencyKeyStoredForAnotherRequestIsRefused() async throws {
        let app = try await app()
        try await devices(app, 1)
        let (first, _) = try await store.createMessage(try keyed(app, id: "m1", digest: "a"), idempotencyKey: "k", window: 1_000)
        #expect(try await store.createMessage(try keyed(app, id: "m2", now: 200, digest: "a"), idempotencyKey: "k", window: 1_000).replayed)
        #expect(try await store.createMessage(try keyed(app, id: "m3", now: 200, digest: nil), idempotencyKey: "k", window: 1_000).replayed)
        let refused = await #expect(throws: IdempotencyKeyReused.self) {
            try await self.store.createMessage(try self.keyed(app, id: "m4", now: 200, digest: "b"), idempotencyKey: "k", window: 1_000)
        }
        #expect(refused?.messageID == first.id)
        // The group commit's way: refused on its own, the others of its group stored.
        let posts = try [("m5", "k", "b"), ("m6", "k2", "c"), ("m7", "k", "a")].map { id, key, digest in
            PostedMessage(message: try keyed(app, id: id, digest: digest), idempotencyKey: key, window: 1_000, chooser: VariantChooser(locales: []), limit: 3, now: 300)
        }
        let outcomes = try await store.createMessagesWithDeliveries(posts, claim: nil)
        #expect(throws: IdempotencyKeyReused.self) { try outcomes[0].get() }
        #expect(try outcomes[1].get().replayed == false && outcomes[1].get().written == 1)
        #expect(try outcomes[2].get().replayed && outcomes[2].get().record.id == first.id)
        #expect(try await store.rowCount("messages") == 2)
        // Past its window the key stores the new request, and its digest.
        #expect(try await store.createMessage(try keyed(app, id: "m8", now: 2_000, digest: "b"), idempotencyKey: "k", window: 1_000).replayed == false)
        #expect(try await store.createMessage(try keyed(app, id: "m9", now: 2_100, digest: "b"), idempotencyKey: "k", window: 1_000).0.id == "m8")
        await #expect(throws: IdempotencyKeyReused.self) {
            try await self.store.createMessage(try self.keyed(app, id: "m10", now: 2_100, digest: "a"), idempotencyKey: "k", window: 1_000)
        }
    }
}
