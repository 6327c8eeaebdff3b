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
@testable import NotibaseServerTestSupport

/// A lane's thread: its work runs one piece at a time, in the order given, on one thread of its
/// own, and a stop ends the thread only after the work given before it.
@Suite("Lane threads")
struct LaneThreadTests {
    @Test func workRunsInOrderOnOneThreadOfItsOwn() async {
        let thread = LaneThread(name: "nb-test")
        let seen = Mutex<[(Int, UInt)]>([])
        let done = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        // The first job waits until all are given: a queue of thousands (as the SQLite writer's
        // under a flood), taken in order through its compactions.
        let gate = DispatchSemaphore(value: 0)
        let count = 5_000
        for index in 0..<count {
            thread.run {
                if index == 0 { gate.wait() }
                seen.withLock { $0.append((index, UInt(pthread_self()))) }
                if index == count - 1 { done.signal() }
            }
        }
        gate.signal()
        await offPool { done.wait() }
        let runs = seen.withLock { $0 }
        #expect(runs.map(\.0) == Array(0..<count))
        #expect(Set(runs.map(\.1)).count == 1)
        #expect(runs.first?.1 != UInt(caller))
        thread.stop()
    }

    /// The names of this process's threads now.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test func aStopEndsTheThreadAfterTheWorkGivenBeforeIt() async throws {
        let thread = LaneThread(name: "nb-stop-test")
        let gate = DispatchSemaphore(value: 0)
        let count = Mutex(0)
        let finished = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        thread.run { started.signal(); gate.wait() }
        await offPool { started.wait() }
        #expect(Self.threadNames().contains("nb-stop-test"), "the thread is not named: its end cannot be seen")
        for _ in 0..<10 { thread.run { count.withLock { $0 += 1 } } }
        thread.run { finished.signal() }
        thread.stop()
        gate.signal()
        await offPool { finished.wait() }
        #expect(count.withLock { $0 } == 10)
        // The thread ends (a bound against a hang only).
        let deadline = ContinuousClock.now + .seconds(20)
        while Self.threadNames().contains("nb-stop-test"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!Self.threadNames().contains("nb-stop-test"))
    }
}
