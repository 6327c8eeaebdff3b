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

/// The API's reads on SQLite take a reader connection, never the writer's queue: while the writer
/// is held by a long statement (a tenant's large cancel, a fan-out batch), a bystander's read is
/// answered, and it sees everything committed before it started.
@Suite("SQLite readers")
struct SQLiteReadersTests {
    @Test func aReadIsAnsweredWhileTheWriterIsBusy() async throws {
        let directory = TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/notibase.sqlite")
        _ = try await store.createApp(id: "app", name: "app", serverKeyHash: [1], clientKeyHash: [2], requireIdentityVerification: false, now: 1)
        let (message, _) = try await store.createMessage(
            NewMessage(id: "m1", appID: "app", content: MessageContent(message: Message(title: "T"), variants: nil), audience: .everyone,
                       sendAt: 5, audienceSize: 0, createdAt: 5),
            idempotencyKey: nil, window: 1_000)
        let clock = ContinuousClock()
        let start = clock.now
        // A statement that holds the writer's actor for seconds: count to ten million.
        let writer = Task {
            try await store.runSQL("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000) SELECT count(*) FROM c")
            return clock.now
        }
        try await Task.sleep(for: .milliseconds(200))  // the writer has started
        let read = try await store.message(appID: "app", id: "m1")
        let answered = clock.now
        #expect(read?.seq == message.seq)
        let writerEnded = try await writer.value
        #expect(writerEnded - start > .seconds(1), "the writer's statement ended too soon to tell")
        #expect(writerEnded - answered > .milliseconds(500), "the read was answered \(writerEnded - answered) before the writer's statement ended")
    }
}
