import Foundation
import NotibaseCore
import NotibaseSenders
import NotibaseTestSupport
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
@testable import NotibaseServerTestSupport

/// Requests, deliveries and the fan-out share one store. During a million-device fan-out, a
/// message to one device waited over a second on SQLite: its claim and its record queued behind
/// fan-out batches of a quarter second. The delivery workers run above the fan-out, which the
/// store's actor tends to honour (decision 0012: not a guarantee); requests do not outrank either,
/// so no flood of them can stop delivery.
@Suite("Priorities: deliveries before the fan-out")
struct PriorityTests {
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
