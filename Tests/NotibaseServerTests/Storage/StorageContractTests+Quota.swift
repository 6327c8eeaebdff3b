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

/// What every backend guarantees for an app's stored-bytes quota when its posts commit at the same
/// moment, as group commits do on PostgreSQL's several connections (decision 0030).
extension StorageContractTests {
    /// Posts committed at once never store past the quota: as many are stored as fit, the others
    /// are refused, and the app's count is what the stored ones take (exactly one more fits).
    /// PostgreSQL checked each group against a count read unlocked and stored past the quota by
    /// what the groups committing meanwhile stored.
    @Test func postsCommittedAtOnceNeverStorePastTheQuota() async throws {
        let app = try await app()
        try await devices(app, 1)
        func post(_ number: Int, limit: Int) throws -> PostedMessage {
            var message = try NewMessage(
                id: String(format: "m%02d", number), appID: app, content: MessageContent(message: Message(title: "T", body: String(repeating: "b", count: 400)), variants: nil),
                audience: .devices(["\(app)-dev-1"]), sendAt: 100, audienceSize: 0, createdAt: 100)
            message.storedBytesLimit = limit
            return PostedMessage(message: message, idempotencyKey: nil, window: 1_000, chooser: VariantChooser(locales: []), limit: 3, now: 100)
        }
        let size = try post(0, limit: 0).message.storedBytes
        let store = self.store
        let outcomes = try await withThrowingTaskGroup(of: [Result<PostedMessage.Outcome, any Error>].self) { group in
            for number in 1...16 {
                let posted = try post(number, limit: 3 * size)
                group.addTask {
                    do { return try await store.createMessagesWithDeliveries([posted], claim: nil) } catch { return [.failure(error)] }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        // A group refused by another's commit throws instead of answering (``GroupCommit`` then
        // tries its posts alone): for a group of one, both are its refusal.
        #expect(outcomes.filter { (try? $0.get()) != nil }.count == 3)
        #expect(outcomes.allSatisfy { outcome in
            if case .failure(let error) = outcome { error is StoredBytesExceeded } else { true }
        })
        #expect(try await store.rowCount("messages") == 3)
        await #expect(throws: StoredBytesExceeded.self) { _ = try await store.createMessagesWithDeliveries([try post(17, limit: 3 * size)], claim: nil)[0].get() }
        _ = try await store.createMessagesWithDeliveries([try post(18, limit: 4 * size)], claim: nil)[0].get()
    }
}
