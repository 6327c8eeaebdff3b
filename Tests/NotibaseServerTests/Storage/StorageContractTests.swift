import Foundation
import NotibaseCore
import Synchronization
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

/// What every ``Storage`` backend guarantees, tested on the protocol alone: script/test runs this
/// suite on SQLite and again on PostgreSQL (`NOTIBASE_TEST_DATABASE_URL`).
@Suite("Storage contract")
final class StorageContractTests: Sendable {
    let directory: TemporaryDirectory
    let opened: TestDatabase.Opened
    var store: any Storage & RowCounting { opened.store }

    init() async throws {
        directory = TemporaryDirectory()
        opened = try await TestDatabase.open(directory: directory.path, busyTimeout: 5_000)
    }

    /// Every test ends with the storage integrity check.
    deinit { opened.finish() }

    func app(_ id: String = "app") async throws -> String {
        _ = try await store.createApp(
            id: id, name: id, serverKeyHash: Array("s-\(id)".utf8), clientKeyHash: Array("c-\(id)".utf8), requireIdentityVerification: false, now: 1)
        return id
    }

    func devices(_ app: String, _ count: Int, locale: String? = nil) async throws {
        let registrations = (1...count).map {
            (DeviceUpsert(platform: .ios, token: String(format: "%064x", $0), locale: locale), newID: "\(app)-dev-\($0)")
        }
        #expect(try await store.registerDevices(appID: app, registrations, now: 10) == count)
    }

    func message(_ app: String, id: String = "m1", audience: Audience = .everyone, now: Int = 100, key: String? = nil) async throws -> (MessageRecord, replayed: Bool) {
        try await store.createMessage(
            NewMessage(id: id, appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: audience, sendAt: now,
                       audienceSize: 0, createdAt: now),
            idempotencyKey: key, window: 1_000)
    }

    @Test func fanOutWritesEachDeviceOnceInBatchesAndThenSends() async throws {
        let app = try await app()
        try await devices(app, 5)
        let (message, _) = try await message(app)
        var written: [Int] = []
        var done = false
        while !done {
            let batch = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 2, now: 200)
            written.append(batch.written)
            done = batch.done
        }
        #expect(written == [2, 2, 1])
        let deliveries = try await store.deliveries(messageSeq: message.seq, state: nil, afterSeq: 0, limit: 100)
        #expect(Set(deliveries.compactMap(\.deviceID)).count == 5)
        #expect(try await store.message(seq: message.seq)?.state == .sending)
        // Done means done: another batch writes nothing.
        let after = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 2, now: 300)
        #expect(after.written == 0 && after.done)
    }

    @Test func audiencesSelectByIDUserAndTags() async throws {
        let app = try await app()
        let registrations: [(DeviceUpsert, newID: String)] = [
            (DeviceUpsert(platform: .ios, token: String(format: "%064x", 1), externalUserID: "u1", tags: ["a", "b"]), "d1"),
            (DeviceUpsert(platform: .ios, token: String(format: "%064x", 2), externalUserID: "u2", tags: ["a"]), "d2"),
            (DeviceUpsert(platform: .android, token: "fcm-token-000000000003", tags: ["c"]), "d3"),
        ]
        _ = try await store.registerDevices(appID: app, registrations, now: 10)
        #expect(try await store.audienceSize(appID: app, .everyone) == 3)
        #expect(try await store.audienceSize(appID: app, .devices(["d1", "d3", "nope"])) == 2)
        #expect(try await store.audienceSize(appID: app, .externalUsers(["u2"])) == 1)
        #expect(try await store.audienceSize(appID: app, .allTags(["a", "b"])) == 1)
        #expect(try await store.audienceSize(appID: app, .anyTag(["b", "c"])) == 2)
        #expect(try await store.devices(appID: app, filter: DeviceFilter(tag: "a"), afterSeq: 0, limit: 10).map(\.id) == ["d1", "d2"])
    }

    /// A list of IDs is looked up entry by entry (docs/decisions/0014): an entry listed twice is one
    /// device, another app's device or an inactive one is no one, and the fan-out writes in device
    /// order across batches whatever order the list has.
    @Test func aListedAudienceIsEachActiveDeviceOfTheAppOnce() async throws {
        let app = try await app()
        let other = try await self.app("other")
        try await devices(app, 5)
        try await devices(other, 1)
        try await store.runSQL("UPDATE devices SET active = 0, deactivated_reason = 'unregistered', deactivated_at = 20 WHERE id = 'app-dev-4'")
        let listed: [String] = ["app-dev-5", "app-dev-2", "app-dev-5", "other-dev-1", "app-dev-4", "app-dev-1", "app-dev-2"]
        #expect(try await store.audienceSize(appID: app, .devices(listed)) == 3)
        let (message, _) = try await message(app, audience: .devices(listed))
        var written: [Int] = []
        var done = false
        while !done {
            let batch = try await store.fanOutBatch(messageSeq: message.seq, audience: .devices(listed), chooser: VariantChooser(locales: []), limit: 2, now: 200)
            written.append(batch.written)
            done = batch.done
        }
        #expect(written == [2, 1])
        let deliveries = try await store.deliveries(messageSeq: message.seq, state: nil, afterSeq: 0, limit: 100)
        #expect(deliveries.compactMap(\.deviceID).sorted() == ["app-dev-1", "app-dev-2", "app-dev-5"])
    }

    /// The one-device message in one transaction: its audience counted, the message stored with
    /// that size and its deliveries written (it is then being sent); a replay writes nothing, nor
    /// does an audience larger than the limit (the fan-out loop writes it).
    @Test func aSmallMessageIsStoredWithItsDeliveries() async throws {
        let app = try await app()
        try await devices(app, 5)
        func new(_ id: String, _ audience: Audience) throws -> NewMessage {
            try NewMessage(id: id, appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: audience,
                           sendAt: 100, audienceSize: 0, createdAt: 100)
        }
        let (one, replayed, written, platforms) = try await store.createMessageWithDeliveries(
            try new("one", .devices(["app-dev-3", "nope"])), idempotencyKey: "k", window: 1_000, chooser: VariantChooser(locales: []), limit: 3, now: 100)
        #expect(!replayed && written == 1 && one.audienceSize == 1 && one.state == .sending)
        #expect(platforms == [.ios], "the platforms written for, so a send knows them without a read")
        #expect(try await store.deliveries(messageSeq: one.seq, state: .queued, afterSeq: 0, limit: 10).compactMap(\.deviceID) == ["app-dev-3"])
        let again = try await store.createMessageWithDeliveries(
            try new("two", .devices(["app-dev-3"])), idempotencyKey: "k", window: 1_000, chooser: VariantChooser(locales: []), limit: 3, now: 150)
        #expect(again.replayed && again.written == nil && again.0.id == "one")
        let large = try await store.createMessageWithDeliveries(
            try new("large", .devices((1...5).map { "app-dev-\($0)" })), idempotencyKey: nil, window: 1_000, chooser: VariantChooser(locales: []), limit: 3, now: 200)
        #expect(large.written == nil && large.0.audienceSize == 5 && large.0.state == .scheduled)
        #expect(try await store.deliveries(messageSeq: large.0.seq, state: nil, afterSeq: 0, limit: 10).isEmpty)
        #expect(try await store.rowCount("deliveries") == 1)
    }

    /// Posts that arrive together are stored in one transaction, each answered on its own: one
    /// the app's stored-bytes quota refuses fails alone and stores nothing; a key used twice in
    /// the group replays the first; the claim is shared over the group and what it claimed comes
    /// back with each message, counted by platform and state.
    @Test func postsArrivingTogetherAreStoredAsOneGroupEachAnsweredOnItsOwn() async throws {
        let app = try await app()
        try await devices(app, 5)
        func post(_ id: String, _ devices: [String], key: String? = nil, limit bytes: Int? = nil) throws -> PostedMessage {
            var message = try NewMessage(
                id: id, appID: app, content: MessageContent(message: Message(title: "T", body: String(repeating: "b", count: 400)), variants: nil),
                audience: .devices(devices), sendAt: 100, audienceSize: 0, createdAt: 100)
            message.storedBytesLimit = bytes
            return PostedMessage(message: message, idempotencyKey: key, window: 1_000, chooser: VariantChooser(locales: []), limit: 3, now: 100)
        }
        // Room for a and b exactly.
        let room = try post("a", ["app-dev-1", "app-dev-2"]).message.storedBytes + post("b", ["app-dev-3"]).message.storedBytes
        let outcomes = try await store.createMessagesWithDeliveries([
            try post("a", ["app-dev-1", "app-dev-2"], key: "k"),
            try post("b", ["app-dev-3"], limit: room),
            try post("c", ["app-dev-4"], limit: room),  // the app already holds a and b: refused
            try post("d", ["app-dev-5"], key: "k"),  // a's key: a replay
            try post("e", ["app-dev-5"]),
        ], claim: FanOutClaim(lease: 30_000, limit: 2))
        #expect(outcomes.count == 5)
        let a = try outcomes[0].get(), b = try outcomes[1].get(), d = try outcomes[3].get(), e = try outcomes[4].get()
        #expect(a.written == 2 && a.record.state == .sending && a.counts == ["ios": ["queued": 2]])
        #expect(a.claimed.map(\.deviceSeq).count == 2 && a.claimed.allSatisfy { $0.messageSeq == a.record.seq && $0.attempts == 1 })
        #expect(b.written == 1 && b.claimed.isEmpty, "the claim's two places went to the first message")
        #expect(throws: StoredBytesExceeded.self) { try outcomes[2].get() }
        #expect(d.replayed && d.record.id == "a" && d.written == nil)
        #expect(e.written == 1 && e.record.content?.message.title == "T")
        #expect(try await store.messages(appID: app, beforeSeq: Int.max, limit: 10).map(\.id) == ["e", "b", "a"])
        #expect(try await store.rowCount("deliveries") == 4)
        // What was claimed is not claimed again; the rest is due now.
        let due = try await store.claimDeliveries(now: 101, lease: 30_000, limit: 10)
        #expect(Set(due.map(\.messageSeq)) == [b.record.seq, e.record.seq])
    }

    /// A credential's health is stored for the credentials it was observed with: an upload starts
    /// them `untested`, and an outcome of the credentials it replaced is not stored over that.
    @Test func credentialHealthIsStoredForTheCurrentCredentialsOnly() async throws {
        let app = try await app()
        try await store.putCredentials(appID: app, provider: "apns", sealed: [1], summary: "{}", now: 10)
        let revision = try #require(try await store.app(app)).credentialsRevision
        let failing = CredentialHealth(state: .failing, lastSuccessAt: 15, lastFailureAt: 20, lastFailureReason: "BadTopic: APNs refuses the topic")
        #expect(try await store.recordCredentialHealth(appID: app, provider: "apns", revision: revision, failing))
        #expect(try await store.credentials(appID: app).first?.health == failing)
        #expect(try await !store.recordCredentialHealth(appID: app, provider: "fcm", revision: revision, failing), "no FCM credentials to mark")

        try await store.putCredentials(appID: app, provider: "apns", sealed: [2], summary: "{}", now: 30)
        #expect(try await store.credentials(appID: app).first?.health == CredentialHealth(), "an upload starts untested")
        #expect(try await !store.recordCredentialHealth(appID: app, provider: "apns", revision: revision, failing), "an outcome of the replaced credentials")
        #expect(try await store.credentials(appID: app).first?.health == CredentialHealth())
    }

    /// An app's stored messages are bounded in bytes: one that does not fit is refused and stores
    /// nothing, another app is not counted with it, and what retention removes is given back.
    @Test func anAppsStoredBytesAreCountedAndGivenBackByRetention() async throws {
        let app = try await app()
        let other = try await self.app("other")
        func new(_ id: String, _ app: String, limit: Int) throws -> NewMessage {
            var message = try NewMessage(
                id: id, appID: app, content: MessageContent(message: Message(title: "T", body: String(repeating: "b", count: 400)), variants: nil),
                audience: .everyone, sendAt: 100, audienceSize: 0, createdAt: 100)
            message.storedBytesLimit = limit
            return message
        }
        let size = try new("probe", app, limit: 0).storedBytes
        _ = try await store.createMessage(try new("m1", app, limit: 2 * size), idempotencyKey: nil, window: 1_000)
        _ = try await store.createMessageWithDeliveries(
            try new("m2", app, limit: 2 * size), idempotencyKey: nil, window: 1_000, chooser: VariantChooser(locales: []), limit: 100, now: 100)
        await #expect(throws: StoredBytesExceeded.self) {
            _ = try await self.store.createMessage(try new("m3", app, limit: 2 * size), idempotencyKey: nil, window: 1_000)
        }
        await #expect(throws: StoredBytesExceeded.self) {
            _ = try await self.store.createMessageWithDeliveries(
                try new("m4", app, limit: 2 * size), idempotencyKey: nil, window: 1_000, chooser: VariantChooser(locales: []), limit: 100, now: 100)
        }
        #expect(try await store.messages(appID: app, beforeSeq: Int.max, limit: 10).map(\.id) == ["m2", "m1"])
        _ = try await store.createMessage(try new("o1", other, limit: 2 * size), idempotencyKey: nil, window: 1_000)
        // Both of the app's messages finished (an empty audience) and retention removed them.
        #expect(try await store.completeFinishedMessages(now: 200) >= 0)
        _ = try await store.fanOutBatch(messageSeq: try #require(try await store.message(appID: app, id: "m1")).seq, audience: .everyone,
                                        chooser: VariantChooser(locales: []), limit: 10, now: 200)
        while try await store.purgeMessages(finishedBefore: 10_000, limit: 1) > 0 {}
        #expect(try await store.messages(appID: app, beforeSeq: Int.max, limit: 10).isEmpty)
        _ = try await store.createMessage(try new("m5", app, limit: 2 * size), idempotencyKey: nil, window: 1_000)
        _ = try await store.createMessage(try new("m6", app, limit: 2 * size), idempotencyKey: nil, window: 1_000)
    }

    @Test func aClaimIsALeaseThatEndsByItself() async throws {
        let app = try await app()
        try await devices(app, 3)
        let (message, _) = try await message(app)
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200)
        let first = try await store.claimDeliveries(now: 300, lease: 1_000, limit: 2)
        #expect(first.count == 2 && first.allSatisfy { $0.attempts == 1 && $0.token != nil && $0.deviceActive })
        let second = try await store.claimDeliveries(now: 301, lease: 1_000, limit: 10)
        #expect(second.count == 1 && Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
        #expect(try await store.claimDeliveries(now: 500, lease: 1_000, limit: 10).isEmpty)
        let again = try await store.claimDeliveries(now: 1_400, lease: 1_000, limit: 10)
        #expect(Set(again.map(\.id)) == Set((first + second).map(\.id)) && again.allSatisfy { $0.attempts == 2 })
        try await store.recordDeliveries(
            again.map { DeliveryUpdate(seq: $0.seq, state: .sent, providerID: "p") }, messageSeqs: [message.seq], now: 1_500)
        #expect(try await store.message(seq: message.seq)?.state == .completed)
        #expect(try await store.queueDepth() == 0)
    }

    /// On PostgreSQL a last fan-out batch and a worker's record can each leave completing the
    /// message to the other (neither sees the other's writes): the sweep completes it.
    @Test func aSendingMessageWithNothingLeftToSendIsCompletedByTheSweep() async throws {
        let app = try await app()
        try await devices(app, 2)
        let (message, _) = try await message(app)
        let (waiting, _) = try await self.message(app, id: "m2")
        for seq in [message.seq, waiting.seq] {
            _ = try await store.fanOutBatch(messageSeq: seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200)
        }
        let claimed = try await store.claimDeliveries(now: 300, lease: 1_000, limit: 10).filter { $0.messageSeq == message.seq }
        try await store.recordDeliveries(claimed.map { DeliveryUpdate(seq: $0.seq, state: .sent, providerID: "p") }, messageSeqs: [message.seq], now: 400)
        #expect(try await store.message(seq: message.seq)?.state == .completed)
        try await store.runSQL("UPDATE messages SET state = 'sending', finished_at = NULL WHERE seq = \(message.seq)")  // what the race leaves
        #expect(try await store.completeFinishedMessages(now: 500) == 1)
        #expect(try await store.message(seq: message.seq)?.state == .completed)
        #expect(try await store.message(seq: waiting.seq)?.state == .sending)
    }

    @Test func anIdempotencyKeyReturnsTheSameMessageWithinItsWindow() async throws {
        let app = try await app()
        let (first, replayedFirst) = try await message(app, id: "m1", now: 100, key: "k")
        let (again, replayed) = try await message(app, id: "m2", now: 500, key: "k")
        #expect(!replayedFirst && replayed && again.id == first.id)
        let (later, replayedLater) = try await message(app, id: "m3", now: 2_000, key: "k")
        #expect(!replayedLater && later.id == "m3")
        let other = try await self.app("other")
        #expect(try await message(other, id: "m4", now: 600, key: "k").replayed == false)
    }

    @Test func aReceiptIsAppliedOnceAndNeverLowersTheState() async throws {
        let app = try await app()
        try await devices(app, 1)
        let (message, _) = try await message(app)
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200)
        let claimed = try await store.claimDeliveries(now: 300, lease: 1_000, limit: 10)
        try await store.recordDeliveries([DeliveryUpdate(seq: claimed[0].seq, state: .sent, providerID: "p")], messageSeqs: [message.seq], now: 400)
        func receipt(_ id: String, _ event: Receipt.Event) -> Receipt {
            Receipt(id: id, deliveryID: claimed[0].id, event: event, occurredAt: Date(timeIntervalSince1970: 1))
        }
        #expect(try await store.applyReceipt(appID: app, receipt("r1", .opened), detail: DeliveryEventDetail(), limit: 5, now: 500) == .accepted(deliveryID: claimed[0].id))
        #expect(try await store.applyReceipt(appID: app, receipt("r1", .opened), detail: DeliveryEventDetail(), limit: 5, now: 501) == .duplicate(deliveryID: claimed[0].id))
        #expect(try await store.applyReceipt(appID: app, receipt("r2", .rendered), detail: DeliveryEventDetail(), limit: 5, now: 502) == .accepted(deliveryID: claimed[0].id))
        #expect(try await store.delivery(appID: app, id: claimed[0].id)?.state == .opened)
        #expect(try await store.applyReceipt(appID: "another", receipt("r3", .opened), detail: DeliveryEventDetail(), limit: 5, now: 503) == .unknownDelivery)
        for number in 3...5 { _ = try await store.applyReceipt(appID: app, receipt("r\(number)", .dismissed), detail: DeliveryEventDetail(), limit: 5, now: 504) }
        #expect(try await store.applyReceipt(appID: app, receipt("r6", .dismissed), detail: DeliveryEventDetail(), limit: 5, now: 505) == .limitReached)
        #expect(try await store.delivery(appID: app, id: claimed[0].id)?.events.map(\.event) == ["opened", "rendered", "dismissed", "dismissed", "dismissed"])
    }

    /// The device can answer before the worker records the send: the late outcome does not undo
    /// the receipt. A send outcome does replace a cancellation (the push was already on its way).
    @Test func aLateOutcomeNeverUndoesAReceiptButReplacesACancellation() async throws {
        let app = try await app()
        try await devices(app, 2)
        let (message, _) = try await message(app)
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200)
        let claimed = try await store.claimDeliveries(now: 300, lease: 1_000, limit: 10)
        #expect(claimed.count == 2)
        _ = try await store.applyReceipt(
            appID: app, Receipt(id: "r", deliveryID: claimed[0].id, event: .rendered, occurredAt: Date(timeIntervalSince1970: 1)),
            detail: DeliveryEventDetail(), limit: 5, now: 350)
        _ = try await store.cancelMessage(appID: app, id: message.id, now: 360)
        #expect(try await store.delivery(appID: app, id: claimed[1].id)?.state == .cancelled)
        try await store.recordDeliveries(
            claimed.map { DeliveryUpdate(seq: $0.seq, state: .sent, providerID: "p") }, messageSeqs: [message.seq], now: 400)
        #expect(try await store.delivery(appID: app, id: claimed[0].id)?.state == .rendered)
        #expect(try await store.delivery(appID: app, id: claimed[1].id)?.state == .sent)
    }

    /// On PostgreSQL a new message and a fan-out batch are announced to every listening node when
    /// they commit (a wake-up; nodes also look on their own). SQLite has one node: nothing to hear.
    ///
    /// Each wait is bounded from where it starts, not by a time limit on the test: a time limit
    /// also counts making the test's store, which in the PostgreSQL pass (a schema migrated per
    /// test, dozens at once on two cores) took up to 74 s.
    @Test func workIsAnnouncedToListeningNodes() async throws {
        let heard = Mutex<[AnnouncedWork]>([])
        guard store.listen({ work in heard.withLock { $0.append(work) } }) else {
            #expect(!TestDatabase.isPostgres)
            return
        }
        func waitFor(_ work: AnnouncedWork) async throws {
            try await waitUntil(timeout: .seconds(20)) { heard.withLock { $0.contains(work) } }
            heard.withLock { $0 = [] }
        }
        // Once listening, it passes on both kinds (what was announced before went unheard).
        try await waitUntil(timeout: .seconds(20)) { heard.withLock { Set($0) == Set(AnnouncedWork.allCases) } }
        heard.withLock { $0 = [] }
        let app = try await app()
        try await devices(app, 2)
        let (message, _) = try await message(app)
        try await waitFor(.fanOut)
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200)
        try await waitFor(.delivery)
        try await store.close()
    }

    /// A fan-out batch can write its first deliveries claimed for the node that writes it, exactly
    /// as a claim leaves them: leased (another claim skips them until the lease ends, then takes
    /// them with a second attempt), one attempt, with the device's token.
    @Test func aFanOutBatchClaimsWhatItWritesForItsNode() async throws {
        let app = try await app()
        try await devices(app, 5)
        let (message, _) = try await message(app)
        let batch = try await store.fanOutBatch(
            messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200,
            claim: FanOutClaim(lease: 1_000, limit: 3))
        #expect(batch.written == 5 && batch.done)
        #expect(batch.claimed.count == 3)
        #expect(batch.claimed.allSatisfy { $0.attempts == 1 && $0.deviceActive && $0.messageSeq == message.seq && $0.createdAt == 200 })
        #expect(batch.claimed.map(\.token) == (1...3).map { String(format: "%064x", $0) })
        let others = try await store.claimDeliveries(now: 300, lease: 1_000, limit: 10)
        #expect(others.count == 2)
        #expect(Set(others.map(\.seq)).isDisjoint(with: batch.claimed.map(\.seq)), "a delivery claimed by its fan-out was claimed again")
        // The lease ends at 1,200; the other two stay claimed until 1,300.
        let expired = try await store.claimDeliveries(now: 1_201, lease: 1_000, limit: 10)
        #expect(expired.map(\.seq) == batch.claimed.map(\.seq))
        #expect(expired.allSatisfy { $0.attempts == 2 })
        for (again, first) in zip(expired, batch.claimed) {
            #expect(again.id == first.id && again.token == first.token && again.deviceSeq == first.deviceSeq && again.platform == first.platform)
        }
    }

    /// Without a claim, or with no room in it, nothing is written claimed.
    @Test func aFanOutBatchWithoutAClaimClaimsNothing() async throws {
        let app = try await app()
        try await devices(app, 3)
        let (message, _) = try await message(app)
        let batch = try await store.fanOutBatch(
            messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200,
            claim: FanOutClaim(lease: 1_000, limit: 0))
        #expect(batch.written == 3 && batch.claimed.isEmpty)
        #expect(try await store.claimDeliveries(now: 300, lease: 1_000, limit: 10).count == 3)
    }

    /// A fan-out reads the clock before it waits for the store (for a connection, for the writer),
    /// and meanwhile a device can register and commit with a later reading, as can a message or a
    /// device on another node whose clock runs ahead. The batch stamps its deliveries no earlier
    /// than the devices it finds and their message, so the history stays in order (the integrity
    /// check calls a delivery older than its device a reused device number); a claim's lease
    /// still runs from the batch's own reading.
    @Test func aFanOutBatchIsNeverOlderThanTheDevicesItFindsOrItsMessage() async throws {
        let app = try await app()
        try await devices(app, 2)
        _ = try await store.registerDevices(
            appID: app, [(DeviceUpsert(platform: .ios, token: String(format: "%064x", 3)), newID: "registered-meanwhile")], now: 250)
        let (first, _) = try await message(app, id: "m1", now: 100)
        let batch = try await store.fanOutBatch(
            messageSeq: first.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200,
            claim: FanOutClaim(lease: 1_000, limit: 3))
        #expect(batch.written == 3 && batch.claimed.map(\.createdAt) == [250, 250, 250])
        #expect(try await store.deliveries(messageSeq: first.seq, state: nil, afterSeq: 0, limit: 10).map(\.createdAt) == [250, 250, 250])
        #expect(try await store.claimDeliveries(now: 1_199, lease: 1_000, limit: 10).isEmpty, "the lease ended late")
        try await store.recordDeliveries(
            batch.claimed.map { DeliveryUpdate(seq: $0.seq, state: .sent, providerID: "p") }, messageSeqs: [first.seq], now: 300)
        #expect(try await store.message(seq: first.seq)?.state == .completed)

        let (second, _) = try await message(app, id: "m2", now: 400)
        _ = try await store.fanOutBatch(messageSeq: second.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200)
        #expect(try await store.deliveries(messageSeq: second.seq, state: nil, afterSeq: 0, limit: 10).map(\.createdAt) == [400, 400, 400])
        #expect(try await store.integrityProblems() == [])
    }

    /// A message to one device written after a large one's backlog is claimed with the next
    /// batch, not after the backlog: messages being sent take turns.
    @Test func claimsTakeTurnsBetweenMessagesBeingSent() async throws {
        let app = try await app()
        try await devices(app, 30)
        let (campaign, _) = try await message(app, id: "campaign")
        _ = try await store.fanOutBatch(messageSeq: campaign.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 100, now: 200)
        let (reset, _) = try await message(app, id: "reset", audience: .devices(["app-dev-7"]))
        _ = try await store.fanOutBatch(messageSeq: reset.seq, audience: .devices(["app-dev-7"]), chooser: VariantChooser(locales: []), limit: 100, now: 300)
        let claimed = try await store.claimDeliveries(now: 400, lease: 1_000, limit: 10)
        #expect(claimed.count == 10)
        #expect(claimed.contains { $0.messageSeq == reset.seq }, "the one-device message waits for no backlog")
        // The rest of the batch is the campaign's oldest, and everything is claimed once.
        var all = claimed
        while case let next = try await store.claimDeliveries(now: 400, lease: 1_000, limit: 10), !next.isEmpty { all += next }
        #expect(all.count == 31 && Set(all.map(\.seq)).count == 31)
    }

    /// Apps take turns for the shares of a claim: an app with more campaigns sending than a claim
    /// shares between never leaves another app's message without a share (before, the oldest
    /// hundred messages took every share, whichever app they were from).
    @Test func oneAppsManyCampaignsLeaveAnotherAppsMessageItsShare() async throws {
        let busy = try await app("busy")
        try await devices(busy, 10)
        for index in 0..<ClaimShares.messagesPerClaim {
            let (campaign, _) = try await message(busy, id: "campaign-\(index)")
            _ = try await store.fanOutBatch(messageSeq: campaign.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 100, now: 200)
        }
        let other = try await app("other")
        try await devices(other, 1)
        let (reset, _) = try await message(other, id: "reset", now: 300)
        _ = try await store.fanOutBatch(messageSeq: reset.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 100, now: 300)
        let claimed = try await store.claimDeliveries(now: 400, lease: 1_000, limit: ClaimShares.messagesPerClaim)
        #expect(claimed.count == ClaimShares.messagesPerClaim)
        #expect(claimed.contains { $0.messageSeq == reset.seq }, "the other app's message has its share of the first claim")
    }

    /// Registrations that arrive together are committed together (a group commit on either store), and
    /// each is answered on its own: one that cannot be written (an app that does not exist) fails
    /// alone, and every other is stored once, a repeated token as an update.
    @Test func registrationsThatArriveTogetherAreEachAnsweredOnTheirOwn() async throws {
        let app = try await app()
        let registrations = GroupCommit(registeringOn: store, limit: 1_000)
        let results = await withTaskGroup(of: (Int, Bool?).self) { group in
            for index in 0..<60 {
                group.addTask {
                    let token = String(format: "%064x", index % 50 + 1)  // the last ten repeat earlier tokens
                    let registration = DeviceUpsert(platform: .ios, token: token, locale: index < 50 ? nil : "fr")
                    do {
                        return (index, try await registrations.submit(PendingRegistration(appID: index == 17 ? "no-such-app" : app, upsert: registration, now: 10)).created)
                    } catch {
                        return (index, nil)
                    }
                }
            }
            return await group.reduce(into: [Int: Bool?]()) { $0[$1.0] = $1.1 }
        }
        #expect(results[17] == .some(nil), "the registration to an app that does not exist fails")
        #expect(results.filter { $0.key != 17 && $0.value == nil }.isEmpty, "no other registration fails with it")
        #expect(results.values.filter { $0 == true }.count == 49, "each of the 49 tokens is created once")
        let devices = try await store.devices(appID: app, filter: DeviceFilter(), afterSeq: 0, limit: 100)
        #expect(devices.count == 49 && Set(devices.map(\.token)).count == 49)
        #expect(devices.filter { $0.locale == "fr" }.count == 10)
    }

    /// Registrations of two apps arriving together, half of them of devices already known: each
    /// known device is updated as a single registration would update it (fields left out keep
    /// their values) and answered as not new, each new one is created once, each in its own app.
    @Test func registrationsOfSeveralAppsArrivingTogetherAreWrittenAsEachAlone() async throws {
        let first = try await app("first"), second = try await app("second")
        let store = store
        let registrations = GroupCommit(registeringOn: store, limit: 1_000)
        for app in [first, second] {
            _ = try await store.registerDevices(appID: app, (1...10).map {
                (DeviceUpsert(platform: .ios, token: String(format: "%064x", $0), locale: "en", timeZone: "Europe/Paris"), newID: "\(app)-old-\($0)")
            }, now: 10)
        }
        let answers = await withTaskGroup(of: (String, String, Bool?).self) { group in
            for index in 1...40 {
                group.addTask {
                    let app = index % 2 == 0 ? first : second
                    let token = String(format: "%064x", (index + 1) / 2)  // 1...20 in each app: 1...10 known
                    let registration = DeviceUpsert(platform: .ios, token: token, tags: ["t\(index)"])
                    return (app, token, try? await registrations.submit(PendingRegistration(appID: app, upsert: registration, now: 20)).created)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 40 && answers.allSatisfy { $0.2 != nil })
        for (app, token, created) in answers {
            #expect(created == (Int(token, radix: 16)! > 10), "\(app) \(token)")
        }
        for app in [first, second] {
            let devices = try await store.devices(appID: app, filter: DeviceFilter(), afterSeq: 0, limit: 100)
            #expect(devices.count == 20)
            let known = devices.filter { Int($0.token, radix: 16)! <= 10 }
            #expect(known.count == 10 && known.allSatisfy { $0.locale == "en" && $0.timeZone == "Europe/Paris" && $0.tags.count == 1 })
            #expect(devices.allSatisfy { $0.updatedAt == 20 && $0.active })
        }
    }

    /// A batch registers new devices and updates known ones as single registrations would:
    /// fields it leaves out keep their values, and a deactivated device is active again.
    @Test func aBatchInsertsNewDevicesAndUpdatesKnownOnes() async throws {
        let app = try await app()
        let first = [
            (DeviceUpsert(platform: .ios, token: "a", tags: ["vip"], locale: "fr-FR"), newID: "d-a"),
            (DeviceUpsert(platform: .android, token: "b", locale: "de-DE", timeZone: "Europe/Berlin"), newID: "d-b"),
        ]
        #expect(try await store.registerDevices(appID: app, first, now: 10) == 2)
        #expect(try await store.deleteDevice(appID: app, id: "d-b", now: 11) == true)
        let second = [
            (DeviceUpsert(platform: .ios, token: "a", locale: "en-GB"), newID: "ignored"),
            (DeviceUpsert(platform: .android, token: "b"), newID: "d-b2"),
            (DeviceUpsert(platform: .android, token: "c"), newID: "d-c"),
        ]
        #expect(try await store.registerDevices(appID: app, second, now: 20) == 2)
        let a = try #require(try await store.device(appID: app, id: "d-a"))
        #expect(a.locale == "en-GB" && a.tags == ["vip"] && a.updatedAt == 20)
        #expect(try await store.device(appID: app, id: "ignored") == nil)
        #expect(try await store.device(appID: app, id: "d-c")?.platform == .android)
        // The same device twice in one batch: in order, the later fields win.
        let twice = [
            (DeviceUpsert(platform: .ios, token: "e", locale: "it-IT"), newID: "d-e"),
            (DeviceUpsert(platform: .ios, token: "e", locale: "es-ES"), newID: "d-e2"),
        ]
        #expect(try await store.registerDevices(appID: app, twice, now: 30) == 1)
        #expect(try await store.device(appID: app, id: "d-e")?.locale == "es-ES")
    }

    @Test func listsPageWithCursors() async throws {
        let app = try await app()
        try await devices(app, 5)
        let firstPage = try await store.devices(appID: app, filter: DeviceFilter(), afterSeq: 0, limit: 2)
        let secondPage = try await store.devices(appID: app, filter: DeviceFilter(), afterSeq: firstPage.last!.seq, limit: 2)
        let lastPage = try await store.devices(appID: app, filter: DeviceFilter(), afterSeq: secondPage.last!.seq, limit: 2)
        #expect((firstPage + secondPage + lastPage).map(\.id) == (1...5).map { "app-dev-\($0)" })
        for id in ["m1", "m2", "m3"] { _ = try await message(app, id: id) }
        let newest = try await store.messages(appID: app, beforeSeq: Int.max, limit: 2)
        let older = try await store.messages(appID: app, beforeSeq: newest.last!.seq, limit: 2)
        #expect(newest.map(\.id) == ["m3", "m2"] && older.map(\.id) == ["m1"])
    }

    /// On the first schema deleteApp left deliveries and their events behind (its subquery ran
    /// after the cascade had removed the messages it selected through).
    @Test func deletingAnAppRemovesEverythingOfIt() async throws {
        let app = try await app()
        let kept = try await self.app("kept")
        try await devices(app, 2)
        let (message, _) = try await message(app, key: "k")
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200)
        let claimed = try await store.claimDeliveries(now: 300, lease: 1_000, limit: 10)
        try await store.recordDeliveries(claimed.map { DeliveryUpdate(seq: $0.seq, state: .failed, detail: DeliveryEventDetail()) }, messageSeqs: [message.seq], now: 400)
        _ = try await store.applyReceipt(
            appID: app, Receipt(id: "r", deliveryID: claimed[0].id, event: .opened, occurredAt: Date(timeIntervalSince1970: 1)), detail: DeliveryEventDetail(), limit: 5, now: 500)
        try await store.putCredentials(appID: app, provider: "apns", sealed: [1], summary: "{}", now: 1)
        #expect(try await store.deleteApp(app))
        for table in ["devices", "messages", "deliveries", "delivery_events", "receipts", "idempotency_keys", "credentials"] {
            #expect(try await store.rowCount(table) == 0, "\(table)")
        }
        #expect(try await store.app(kept) != nil)
        #expect(try await store.integrityProblems() == [])
    }

    @Test func deletingADeviceFailsWhatWaitsForIt() async throws {
        let app = try await app()
        try await devices(app, 1)
        let (message, _) = try await message(app)
        _ = try await store.fanOutBatch(messageSeq: message.seq, audience: .everyone, chooser: VariantChooser(locales: []), limit: 10, now: 200)
        #expect(try await store.deleteDevice(appID: app, id: "app-dev-1", now: 300))
        let delivery = try #require(try await store.deliveries(messageSeq: message.seq, state: nil, afterSeq: 0, limit: 10).first)
        #expect(delivery.state == .failed && delivery.deviceID == nil && delivery.events.last?.event == "failed")
        #expect(try await store.claimDeliveries(now: 400, lease: 1_000, limit: 10).isEmpty)
        #expect(try await store.message(seq: message.seq)?.state == .completed)
    }
}
