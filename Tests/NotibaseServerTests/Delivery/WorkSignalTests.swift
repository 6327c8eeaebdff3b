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

/// The wake-up a node's loops wait on. A wait that is not ended by its signal lasts an hour, so a
/// broken wake-up fails these tests by their time limit.
@Suite(.timeLimit(.minutes(1)))
struct WorkSignalTests {
    @Test func aSignalWhileTheLoopWasLookingEndsItsNextWaitAtOnce() async {
        let signal = WorkSignal()
        let generation = signal.generation
        signal.notify()  // arrives while the loop is still looking for work
        await signal.wait(since: generation, timeout: .seconds(3_600))
        #expect(signal.generation != generation)
    }

    @Test func aSignalEndsAWaitInProgress() async {
        let signal = WorkSignal()
        let generation = signal.generation
        let waiting = Task { await signal.wait(since: generation, timeout: .seconds(3_600)) }
        while signal.generation == generation {
            signal.notify()
            await Task.yield()
        }
        await waiting.value
    }

    @Test func aWaitEndsAfterItsTimeoutWithoutASignal() async {
        let signal = WorkSignal()
        let generation = signal.generation
        await signal.wait(since: generation, timeout: .milliseconds(10))
        #expect(signal.generation == generation)
    }

    @Test func cancellingTheLoopEndsItsWait() async {
        let signal = WorkSignal()
        let waiting = Task { await signal.wait(since: signal.generation, timeout: .seconds(3_600)) }
        waiting.cancel()
        await waiting.value
    }
}
