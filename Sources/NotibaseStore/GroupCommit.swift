import Synchronization
import NotibaseDomain

/// Writes that arrive together, committed together: while one group's transaction runs, those
/// that arrive wait, and the next group takes them all (up to `limit`). One commit then serves
/// many requests: on SQLite one write-ahead-log commit and one turn of the writer, on PostgreSQL
/// one flush to disk and one hold of the rows they share (an app's row), instead of one each.
///
/// Backend-neutral: `commit` is a store's method for a group, which answers each item on its own
/// (an item refused by a rule of its own, such as a quota, fails alone). When `commit` throws, the
/// group changed nothing, and each of its items is tried again alone, so that an error belongs
/// to its own item only; unless the error is every item's as it is (`failsEveryItem`: the
/// database is unavailable), which then answers them all at once.
///
/// A caller that finds fewer than `concurrency` commits under way starts one, on a task that
/// begins on its own thread (no hop when the server is quiet) and goes on committing the groups
/// that gather meanwhile until none waits.
package final class GroupCommit<Item: Sendable, Output: Sendable>: Sendable {
    package typealias Commit = @Sendable ([Item]) async throws -> [Result<Output, any Error>]

    private struct Waiting: Sendable {
        package var item: Item
        package var continuation: CheckedContinuation<Output, any Error>
    }

    private struct State {
        package var waiting: [Waiting] = []
        /// Groups being committed now.
        package var committing = 0
        /// Items submitted since it was made.
        package var submitted = 0
    }

    private let state = Mutex(State())
    private let limit: Int
    private let concurrency: Int
    private let commit: Commit
    private let failsEveryItem: @Sendable (any Error) -> Bool

    /// Groups of at most `limit` items, each committed by `commit`, at most `concurrency` at
    /// once (a store with one writer: 1; PostgreSQL: a few connections, whose groups overlap all
    /// but what they hold in common).
    package init(limit: Int, concurrency: Int = 1, failsEveryItem: @escaping @Sendable (any Error) -> Bool = { _ in false }, commit: @escaping Commit) {
        self.limit = max(1, limit)
        self.concurrency = max(1, concurrency)
        self.failsEveryItem = failsEveryItem
        self.commit = commit
    }

    /// Commits `item` with those that arrive with it; returns its own outcome.
    package func submit(_ item: Item) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let starts = state.withLock { state in
                state.waiting.append(Waiting(item: item, continuation: continuation))
                state.submitted &+= 1
                guard state.committing < concurrency else { return false }
                state.committing += 1
                return true
            }
            guard starts else { return }
            // Runs synchronously up to the store's first suspension: the caller's own group.
            Task.immediate { await self.commitGroups() }
        }
    }

    /// How many items wait for the next group (for tests).
    package var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// How many items were submitted so far: it grows while others write (the fan-out makes way).
    package var submitted: Int { state.withLock { $0.submitted } }

    /// Commits the waiting groups until none is left (alongside the others under way).
    private func commitGroups() async {
        while let group = nextGroup() {
            let items = group.map(\.item)
            let outcomes: [Result<Output, any Error>]
            do {
                outcomes = try await commit(items)
            } catch where failsEveryItem(error) {
                outcomes = items.map { _ in .failure(error) }
            } catch {
                // The group changed nothing: each alone, so the error stays with its own item.
                var alone: [Result<Output, any Error>] = []
                for item in items {
                    alone.append(group.count == 1 ? .failure(error) : await Self.single(item, commit))
                }
                outcomes = alone
            }
            for (waiting, outcome) in zip(group, outcomes) { waiting.continuation.resume(with: outcome) }
            for waiting in group.dropFirst(outcomes.count) {
                waiting.continuation.resume(throwing: GroupCommitError.noOutcome)
            }
        }
    }

    private static func single(_ item: Item, _ commit: Commit) async -> Result<Output, any Error> {
        do {
            return try await commit([item]).first ?? .failure(GroupCommitError.noOutcome)
        } catch {
            return .failure(error)
        }
    }

    /// The next group, or nil (and one commit fewer under way) when nothing waits.
    private func nextGroup() -> [Waiting]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.committing -= 1
                return nil
            }
            let count = min(limit, state.waiting.count)
            defer { state.waiting.removeFirst(count) }
            return Array(state.waiting.prefix(count))
        }
    }
}

/// A store's group commit answered fewer items than it was given (a bug in the store).
package enum GroupCommitError: Error {
    case noOutcome
}
