import Foundation
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

/// The background checkpoints of a serving SQLite store: on a thread of their own, by its name.
@Suite("SQLite's background checkpoints")
struct CheckpointerTests {
    @Test func aServingStoreCheckpointsOnAThreadNamedForIt() async throws {
        let directory = TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/notibase.sqlite", checkpointLogger: Logger(minimumLevel: .error))
        let checkpointer = try #require(store.checkpointer)
        // A bound against a hang only: the thread says where it is once it runs.
        let deadline = ContinuousClock.now + .seconds(20)
        while checkpointer.task == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let task = try #require(checkpointer.task)
        // By its name, its time is told from Swift's shared threads' (the workers') in `top -H`,
        // `perf` and script/bench-delivery's CPU by thread.
        let name = try String(contentsOfFile: task + "/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(name == "nb-checkpoint")
        try await store.close()
    }
}
