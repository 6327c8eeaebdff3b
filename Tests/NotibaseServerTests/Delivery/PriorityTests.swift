import Foundation
import NotibaseCore
import NotibaseSenders
import NotibaseTestSupport
import Synchronization
import Testing
@testable import NotibaseServer

/// Requests, deliveries and the fan-out share one store. During a million-device fan-out, a
/// message to one device waited over a second on SQLite: its claim and its record queued behind
/// fan-out batches of a quarter second. The store runs what is queued by priority, and the
/// delivery workers run above the fan-out; requests do not outrank either, so no flood of them can
/// stop delivery.
@Suite("Priorities: deliveries before the fan-out")
struct PriorityTests {
    @Test func theStoreRunsWhatIsQueuedByPriorityNotByArrival() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/notibase.sqlite"
        let store = try SQLiteStore(path: path, busyTimeout: 120_000)
        // Another connection holds the write lock, so the store's first write waits inside the
        // store (an actor runs one call at a time) while the others queue.
        let holder = try SQLiteConnection(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        let log = Finished()
        func write(_ name: String, _ priority: TaskPriority) async throws -> Task<Void, any Error> {
            let task = Task(priority: priority) {
                _ = log.calling.withLock { $0.insert(name) }  // the hop to the store follows at once
                _ = try await store.insertSettingIfAbsent(name, [1])
                log.names.withLock { $0.append(name) }
            }
            try await waitUntil(timeout: .seconds(60)) { log.calling.withLock { $0.contains(name) } }
            try await Task.sleep(for: .milliseconds(200))
            return task
        }
        var tasks = [try await write("first", Server.backgroundPriority)]
        tasks.append(try await write("fan-out", Server.backgroundPriority))
        tasks.append(try await write("request", Server.requestPriority))
        tasks.append(try await write("delivery", Server.deliveryPriority))
        try holder.execute("COMMIT")
        for task in tasks { try await task.value }
        #expect(log.names.withLock { $0 } == ["first", "delivery", "fan-out", "request"])
    }

    @Test func theDeliveryWorkersRunAtTheirPriority() async throws {
        let sender = PriorityRecordingSender()
        // Started from a task of the lowest priority, which tasks started without one inherit.
        let (server, directory) = try await Task(priority: .background) {
            try await InProcessServer.start(senders: SenderSet(ios: sender, android: sender, credentials: .notRequired))
        }.value
        let client = SocketClient(port: server.port)
        let app = try await client.createApp()
        _ = try await client.registerDevice(app, number: 1)
        _ = try await client.send(app, #"{"message": {"title": "Hello"}, "audience": {"all": true}}"#)
        try await waitUntil { !sender.priorities.isEmpty }
        #expect(sender.priorities == [Server.deliveryPriority])
        #expect(Server.deliveryPriority > Server.backgroundPriority && Server.requestPriority <= Server.backgroundPriority)
        await server.shutdown()
        _ = directory
    }
}

/// The names of the writes, in the order they finished.
private final class Finished: Sendable {
    let calling = Mutex<Set<String>>([])
    let names = Mutex<[String]>([])
}

/// Accepts every push and records the priority of the task that handed it over.
private final class PriorityRecordingSender: Sender {
    private let recorded = Mutex<[TaskPriority]>([])

    var priorities: [TaskPriority] { recorded.withLock { $0 } }

    func send(_ pushes: [Push]) async -> [SendOutcome] {
        recorded.withLock { $0.append(Task.currentPriority) }
        return pushes.map { .sent(providerID: "p-" + $0.deliveryID) }
    }

    func shutdown() async {}
}
