import Foundation
import NotibaseSenders

/// Writes the deliveries of due messages, a batch of devices per transaction, so a large audience
/// never holds the database for long and a crash resumes at the last committed batch.
actor FanOut {
    private let store: any Storage
    private let clock: WallClock
    private let logger: Logger
    private let metrics: Metrics
    private let batchSize: Int

    init(store: any Storage, clock: WallClock, logger: Logger, metrics: Metrics, batchSize: Int) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.batchSize = batchSize
    }

    /// Fans out every due message completely; returns how many deliveries it wrote.
    @discardableResult
    func runOnce() async throws -> Int {
        var written = 0
        for message in try await store.messagesToFanOut(now: clock.milliseconds()) {
            guard let content = try? JSONDecoder().decode(MessageContent.self, from: Data(message.content.utf8)),
                  let audience = try? JSONDecoder().decode(Audience.self, from: Data(message.audience.utf8))
            else {
                throw StorageError.corrupt("message \(message.id)")
            }
            let chooser = VariantChooser(locales: content.variants?.keys.sorted() ?? [])
            var done = false
            while !done && !Task.isCancelled {
                let batch = try await store.fanOutBatch(messageSeq: message.seq, audience: audience, chooser: chooser, limit: batchSize, now: clock.milliseconds())
                written += batch.written
                metrics.recordFanOut(deliveries: batch.written)
                done = batch.done
            }
            if done { logger.info("fan-out finished", ["messageId": .string(message.id)]) }
        }
        return written
    }

    /// Runs until cancelled, looking for due messages every `interval`.
    func run(interval: Duration) async {
        while !Task.isCancelled {
            do {
                try await runOnce()
            } catch {
                logger.error("fan-out failed; retrying", ["error": .string("\(error)")])
            }
            try? await Task.sleep(for: interval)
        }
    }
}
