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

/// Writes that arrive together, committed together (``GroupCommit``), each answered on its own.
@Suite("Group commit")
struct GroupCommitTests {
    /// A store's group method that records the groups it was given; it holds the first group
    /// until `release` is opened, so that the others arrive while it runs.
    final class Recorder: Sendable {
        let groups = Mutex<[[Int]]>([])
        let gate = AsyncGate()

        func commit(_ items: [Int]) async throws -> [Result<Int, any Error>] {
            let first = groups.withLock { groups in
                groups.append(items)
                return groups.count == 1
            }
            if first { await gate.wait() }
            return items.map { $0 < 0 ? .failure(Refused(item: $0)) : .success($0 * 10) }
        }
    }

    struct Refused: Error, Equatable { var item: Int }
    struct Broken: Error {}

    /// Items that arrive while a group commits wait and go together in the next one; each gets
    /// its own outcome, a refused one its own error.
    @Test func thoseThatArriveDuringACommitGoTogetherInTheNext() async throws {
        let recorder = Recorder()
        let commits = GroupCommit<Int, Int>(limit: 100) { try await recorder.commit($0) }
        let first = Task { try await commits.submit(1) }
        while recorder.groups.withLock({ $0.isEmpty }) { await Task.yield() }
        let others = (2...6).map { item in Task { try? await commits.submit(item == 4 ? -4 : item) } }
        // Wait until all five are queued behind the first group, then let it finish.
        while commits.waitingCount < 5 { await Task.yield() }
        recorder.gate.open()
        #expect(try await first.value == 10)
        var answers: [Int?] = []
        for task in others { answers.append(await task.value) }
        #expect(answers == [20, 30, nil, 50, 60])
        #expect(recorder.groups.withLock { $0.map { $0.sorted() } } == [[1], [-4, 2, 3, 5, 6]])
    }

    /// A group is at most `limit` items; the rest wait for the next.
    @Test func aGroupHoldsAtMostItsLimit() async throws {
        let recorder = Recorder()
        let commits = GroupCommit<Int, Int>(limit: 2) { try await recorder.commit($0) }
        let first = Task { try await commits.submit(1) }
        while recorder.groups.withLock({ $0.isEmpty }) { await Task.yield() }
        let others = (2...6).map { item in Task { try await commits.submit(item) } }
        while commits.waitingCount < 5 { await Task.yield() }
        recorder.gate.open()
        _ = try await first.value
        for task in others { _ = try await task.value }
        #expect(recorder.groups.withLock { $0.map(\.count) } == [1, 2, 2, 1])
    }

    /// With room for two commits at once, a second group starts beside the first (a store whose
    /// transactions overlap), and the rest wait for either.
    @Test func upToItsConcurrencyGroupsCommitSideBySide() async throws {
        let recorder = Recorder()
        let commits = GroupCommit<Int, Int>(limit: 100, concurrency: 2) { try await recorder.commit($0) }
        let first = Task { try await commits.submit(1) }
        while recorder.groups.withLock({ $0.isEmpty }) { await Task.yield() }
        let second = Task { try await commits.submit(2) }
        while recorder.groups.withLock({ $0.count < 2 }) { await Task.yield() }
        #expect(recorder.groups.withLock { $0 } == [[1], [2]], "the second group did not wait for the first")
        #expect(try await second.value == 20)
        // The first still holds its commit: the others go through the second's place.
        let others = (3...5).map { item in Task { try await commits.submit(item) } }
        for task in others { _ = try await task.value }
        recorder.gate.open()
        #expect(try await first.value == 10)
        #expect(recorder.groups.withLock { $0.flatMap { $0 } }.sorted() == [1, 2, 3, 4, 5])
    }

    /// When the group's transaction fails, it changed nothing: each item is tried alone, so only
    /// the one that breaks it fails, with its own error.
    @Test func aFailedGroupIsTriedAgainItemByItem() async throws {
        let tried = Mutex<[[Int]]>([])
        let commits = GroupCommit<Int, Int>(limit: 10) { items in
            tried.withLock { $0.append(items) }
            if items.contains(3) { throw Broken() }
            return items.map { .success($0) }
        }
        async let a = commits.submit(1)
        async let b = try? commits.submit(3)
        async let c = commits.submit(5)
        let (x, y, z) = try await (a, b, c)
        #expect(x == 1 && y == nil && z == 5)
        // However the three were grouped, 3 failed alone and never took another with it.
        #expect(tried.withLock { $0 }.filter { $0.contains(3) }.last == [3])
    }

    /// An error that is every item's as it is (the database is unavailable) answers the whole
    /// group at once: nothing is tried again item by item, to wait for the database as many times.
    @Test func anErrorOfEveryItemAnswersTheGroupAtOnce() async throws {
        let recorder = Recorder()
        let tried = Mutex<[[Int]]>([])
        let commits = GroupCommit<Int, Int>(limit: 10, failsEveryItem: { $0 is Broken }) { items in
            tried.withLock { $0.append(items) }
            if items.count == 1 && items[0] == 1 { return try await recorder.commit(items) }
            throw Broken()
        }
        let first = Task { try await commits.submit(1) }
        while recorder.groups.withLock({ $0.isEmpty }) { await Task.yield() }
        let others = (2...4).map { item in Task { () -> Bool in
            do { _ = try await commits.submit(item); return false } catch { return error is Broken }
        } }
        while commits.waitingCount < 3 { await Task.yield() }
        recorder.gate.open()
        #expect(try await first.value == 10)
        for task in others { #expect(await task.value) }
        #expect(tried.withLock { $0.map { $0.sorted() } } == [[1], [2, 3, 4]])
    }
}

/// Opens once; those waiting go on.
final class AsyncGate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let go = state.withLock { state in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if go { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// How many wait for it now.
    var waiters: Int { state.withLock { $0.waiting.count } }
}
