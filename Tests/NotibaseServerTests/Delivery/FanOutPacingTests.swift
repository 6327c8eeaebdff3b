import Foundation
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

/// The fan-out makes way for one-device messages (issue 27): while they arrive, its batches are
/// the smallest, so each of them waits for a short batch of a large message, not a long one.
@Suite struct FanOutPacingTests {
    /// Stands for ``GroupCommit/submitted`` of a node's posts: grows at each look while posts
    /// arrive.
    final class Posts: Sendable {
        let state = Mutex((arriving: false, count: 0))
        func look() -> Int {
            state.withLock { state in
                if state.arriving { state.count += 1 }
                return state.count
            }
        }
    }

    @Test func batchesAreTheSmallestWhileOneDeviceMessagesArrive() async throws {
        let harness = try await Harness()
        let app = try await harness.createApp("Big")
        try await harness.registerDevices(4_000, in: app)
        _ = try await harness.send(app, #"{"message": {"title": "Flash sale"}, "audience": {"all": true}}"#)
        let posts = Posts()
        let fanOut = FanOut(
            store: harness.store, clock: WallClock { harness.time.now }, logger: .silent, metrics: Metrics(), batchSize: 1_000, minimumBatchSize: 250,
            posted: posts.look)
        // Quiet: the configured batch, or half of it if the debug build's batch was slow.
        #expect(try await fanOut.runRound().written == 1_000)
        #expect(try await fanOut.runRound().written >= 500)
        posts.state.withLock { $0.arriving = true }
        _ = try await fanOut.runRound()
        #expect(try await fanOut.runRound().written == 250, "a batch while one-device messages arrived was not the smallest")
    }

    @Test func aOneDeviceMessageDuringABatchMakesTheNextTheSmallest() {
        var pacing = BatchPacing(maximum: 5_000, minimum: 250)
        pacing.record(.milliseconds(1), othersArrived: true)
        #expect(pacing.size == 250)
        pacing.record(.milliseconds(1))
        #expect(pacing.size == 500, "quick batches grow back once none arrive")
    }
}
