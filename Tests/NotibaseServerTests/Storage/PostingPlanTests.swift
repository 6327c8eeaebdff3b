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

/// The rules of storing posted messages (``PostingPlan``), decided without a database: the
/// idempotency window and digest, the write-now rule, the claim's room, the stored-bytes quota.
@Suite("Posting plan")
struct PostingPlanTests {
    static func message(_ id: String = "m", app: String = "app", at: Int = 1_000, digest: String? = nil, limit: Int? = nil) throws -> NewMessage {
        var message = try NewMessage(
            id: id, appID: app, content: MessageContent(message: Message(title: "T"), variants: nil), audience: .everyone, sendAt: at,
            audienceSize: 0, createdAt: at)
        message.requestDigest = digest
        message.storedBytesLimit = limit
        return message
    }

    static func post(limit: Int) throws -> PostedMessage {
        PostedMessage(message: try message(), idempotencyKey: nil, window: 0, chooser: VariantChooser(locales: []), limit: limit, now: 1_000)
    }

    static let stored = MessageRecord(
        seq: 7, id: "earlier", appID: "app", content: nil, audience: .everyone, state: .sending, sendAt: 0, audienceSize: 1, fanOutCursor: 0,
        createdAt: 500, finishedAt: nil)

    @Test func aKeyIsLookedUpWithinItsWindowOnly() throws {
        let message = try Self.message(at: 1_000)
        #expect(PostingPlan.looksUp(StoredIdempotencyKey(messageID: "e", createdAt: 1, digest: nil), for: message, window: 1_000))
        #expect(!PostingPlan.looksUp(StoredIdempotencyKey(messageID: "e", createdAt: 0, digest: nil), for: message, window: 1_000))
    }

    /// Same key and same request: the stored message; another request: refused (422); a request
    /// or a key without a digest replays; a message retention removed is stored anew.
    @Test func aKeyReplaysTheSameRequestAndRefusesAnother() throws {
        let key = StoredIdempotencyKey(messageID: "earlier", createdAt: 500, digest: "a")
        #expect(try PostingPlan.replay(key, of: Self.message(digest: "a"), found: Self.stored)?.seq == 7)
        #expect(try PostingPlan.replay(key, of: Self.message(digest: nil), found: Self.stored)?.seq == 7)
        #expect(try PostingPlan.replay(StoredIdempotencyKey(messageID: "earlier", createdAt: 500, digest: nil), of: Self.message(digest: "b"), found: Self.stored) != nil)
        let refused = #expect(throws: IdempotencyKeyReused.self) { try PostingPlan.replay(key, of: Self.message(digest: "b"), found: Self.stored) }
        #expect(refused?.messageID == "earlier")
        #expect(try PostingPlan.replay(key, of: Self.message(digest: "b"), found: nil) == nil)
    }

    @Test func deliveriesAreWrittenWithAPostWhoseAudienceFitsItsLimit() throws {
        #expect(PostingPlan.writesNow(try Self.post(limit: 3), audienceSize: 3))
        #expect(!PostingPlan.writesNow(try Self.post(limit: 3), audienceSize: 4))
        #expect(PostingPlan.reading(try Self.post(limit: 3)) == 4)
    }

    @Test func eachPostClaimsWhatTheEarlierOnesLeft() {
        var plan = PostingPlan(claim: FanOutClaim(lease: 30, limit: 3))
        #expect(plan.nextClaim?.limit == 3 && plan.nextClaim?.lease == 30)
        plan.claimed(2)
        #expect(plan.nextClaim?.limit == 1)
        plan.claimed(1)
        #expect(plan.nextClaim == nil)
        #expect(PostingPlan(claim: nil).nextClaim == nil)
    }

    /// Each post is checked against the count as read plus what the group's earlier posts add; one
    /// that does not fit is refused and adds nothing; a post without a limit is counted, not checked.
    @Test func theQuotaCountsTheGroupsEarlierPosts() throws {
        let size = try Self.message().storedBytes
        var plan = PostingPlan(claim: nil)
        let first = try Self.message(limit: 3 * size)
        #expect(plan.needsStoredBytes(for: first))
        plan.read(storedBytes: size, appID: "app")
        #expect(!plan.needsStoredBytes(for: first))
        try plan.admit(first)
        try plan.admit(Self.message(app: "other"))
        #expect(!plan.needsStoredBytes(for: try Self.message(app: "other")), "no limit: nothing to read")
        let refused = #expect(throws: StoredBytesExceeded.self) { try plan.admit(Self.message(limit: 2 * size)) }
        #expect(refused?.used == 2 * size && refused?.limit == 2 * size && refused?.message == size)
        try plan.admit(Self.message(limit: 3 * size))
        #expect(throws: StoredBytesExceeded.self) { try plan.admit(Self.message(limit: 3 * size)) }
        try plan.admit(Self.message())
        #expect(plan.additions == [
            PostingPlan.Addition(appID: "app", bytes: 3 * size, ceiling: size, limit: 3 * size),
            PostingPlan.Addition(appID: "other", bytes: size, ceiling: nil, limit: nil),
        ])
    }

    /// The additions' guard: the largest count at which every admitted post still fits, however
    /// their limits differ (the tightest wins).
    @Test func theGuardIsTheTightestRoomOfTheAdmittedPosts() throws {
        let size = try Self.message().storedBytes
        var plan = PostingPlan(claim: nil)
        plan.read(storedBytes: 0, appID: "app")
        try plan.admit(Self.message(limit: 2 * size))  // fits while the count is at most size
        try plan.admit(Self.message(limit: 10 * size))  // fits while it is at most 8 sizes
        #expect(plan.additions.map(\.ceiling) == [size])
        #expect(plan.additions.map(\.limit) == [2 * size])
    }
}
