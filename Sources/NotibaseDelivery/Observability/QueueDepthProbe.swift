package import NotibaseDomain
package import NotibaseStore
import NotibaseWebhooks
/// Measures the queue's depth in the background, at a fixed interval, for `/metrics`: counting
/// the queue reads every delivery not yet final, so a scrape only shows the last measurement and
/// scrapers, however many and however often, never reach the database.
package struct QueueDepthProbe: Sendable {
    /// How often the server measures.
    package static let interval: Duration = .seconds(10)

    package let metrics: Metrics
    package let logger: Logger
    package let measure: @Sendable () async throws -> Int

    package init(metrics: Metrics, logger: Logger, measure: @escaping @Sendable () async throws -> Int) {
        self.metrics = metrics
        self.logger = logger
        self.measure = measure
    }

    package init(store: any DeliveryQueueStore, metrics: Metrics, logger: Logger) {
        self.init(metrics: metrics, logger: logger) { try await store.queueDepth() }
    }

    /// Measures once and records it.
    package func runOnce() async throws {
        metrics.recordQueueDepth(try await measure())
    }

    /// Measures now, then every `interval`, until cancelled. A failed measurement keeps the last
    /// one and is logged.
    package func run(interval: Duration = Self.interval) async {
        while !Task.isCancelled {
            do {
                try await runOnce()
            } catch where !Task.isCancelled {
                logger.warning("measuring the queue's depth failed; /metrics shows the last measurement", ["error": .string("\(error)")])
            } catch {
                return
            }
            try? await Task.sleep(for: interval)
        }
    }
}
