import Foundation
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

/// Reads whose cost grows with an app's size (an audience counted) have SQLite readers of their
/// own, whose threads run below the server's others (decision 0042): a tenant's counts taking
/// every bulk reader leave every other read a reader, and on a busy machine the CPU goes to the
/// rest first.
@Suite("Bulk readers")
struct BulkReadersTests {
    /// Holds a bulk reader until ``release()`` (its body blocks the reader's own thread).
    final class Holder: Sendable {
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        func release() { gate.signal() }
    }

    static func hold(_ readers: SQLiteReaders, app: String) async -> (Holder, Task<Void, any Error>) {
        let holder = Holder()
        let task = Task { try await readers.bulkRead(app: app) { _ in holder.started.signal(); holder.gate.wait() } }
        await offPool { holder.started.wait() }
        return (holder, task)
    }

    @Test func everyBulkReaderBusyLeavesTheOtherReadsAReaderAndCountsWait() async throws {
        let directory = TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/notibase.sqlite")
        _ = try await store.createApp(id: "bystander", name: "b", serverKeyHash: [1], clientKeyHash: [2], requireIdentityVerification: false, now: 1)
        // Two tenants' counts hold both bulk readers.
        var held: [(Holder, Task<Void, any Error>)] = []
        for app in ["tenant-1", "tenant-2"] { held.append(await Self.hold(store.readers, app: app)) }
        #expect(SQLiteReaders.bulkCount == held.count)

        // The count is a bulk read: it waits for a bulk reader (a bound against a hang only).
        let count = Task { try await store.audienceSize(appID: "bystander", .everyone) }
        let deadline = ContinuousClock.now + .seconds(20)
        while store.readers.bulkWaitingCount == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(store.readers.bulkWaitingCount == 1, "the audience count did not wait for a bulk reader")
        // Reads bounded by their answer are answered meanwhile, on the other readers.
        #expect(try await store.app("bystander")?.name == "b")
        #expect(try await store.message(appID: "bystander", id: "none") == nil)
        #expect(try await store.devices(appID: "bystander", filter: DeviceFilter(), afterSeq: 0, limit: 10).isEmpty)

        for (holder, _) in held { holder.release() }
        for (_, task) in held { try await task.value }
        #expect(try await count.value == 0)
    }

    #if os(Linux)
    @Test func bulkReadsRunBelowTheOtherReadsPriority() async throws {
        let directory = TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/notibase.sqlite")
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let point = try await store.readers.read { _ in getpriority(which, 0) }
        let bulk = try await store.readers.bulkRead { _ in getpriority(which, 0) }
        #expect(bulk == min(19, point + SQLiteReaders.bulkNiceness))
        #expect(bulk > point)
    }
    #endif
}
