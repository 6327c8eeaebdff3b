package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks

/// Keeps the delivery history bounded: messages that finished more than the retention period ago
/// are removed with their deliveries, events and receipts, in the background. On PostgreSQL whole
/// weeks of history are dropped at once (and the weeks ahead made), on SQLite a batch per
/// transaction; what no partition drop takes goes in batches on both. Messages still scheduled or
/// sending are kept whatever their age. With no period (retention off) it removes nothing, and
/// still makes the weeks ahead, so new history never piles up in PostgreSQL's DEFAULT partition.
package actor Retention {
    private let store: any HistoryStore
    private let clock: WallClock
    private let logger: Logger
    private let period: Duration?
    private let batchSize: Int

    package init(store: any HistoryStore, clock: WallClock, logger: Logger, period: Duration?, batchSize: Int = 5_000) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.period = period
        self.batchSize = batchSize
    }

    /// Removes everything past the period; returns how many rows it removed in batches (a dropped
    /// partition is counted apart, in the log).
    @discardableResult
    package func runOnce() async throws -> Int {
        let now = clock.milliseconds()
        try await store.prepareHistory(now: now)
        guard let period else { return 0 }
        let before = now - Int(period.components.seconds) * 1000
        let partitions = try await store.dropExpiredHistory(finishedBefore: before)
        if partitions > 0 { logger.info("retention dropped old history partitions", ["partitions": .int(partitions)]) }
        var removed = 0
        while !Task.isCancelled {
            let batch = try await store.purgeMessages(finishedBefore: before, limit: batchSize)
            removed += batch
            if batch == 0 { break }
            await Task.yield()
        }
        if removed > 0 { logger.info("retention removed old history", ["rows": .int(removed)]) }
        return removed
    }

    /// Runs until cancelled, every `interval`.
    package func run(interval: Duration) async {
        while !Task.isCancelled {
            do {
                try await runOnce()
            } catch {
                logger.warning("retention failed; trying again later", ["error": .string("\(error)")])
            }
            try? await Task.sleep(for: interval)
        }
    }
}
