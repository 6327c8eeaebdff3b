/// Measures the queue's depth in the background, at a fixed interval, for `/metrics`: counting
/// the queue reads every delivery not yet final, so a scrape only shows the last measurement and
/// scrapers, however many and however often, never reach the database.
struct QueueDepthProbe: Sendable {
    /// How often the server measures.
    static let interval: Duration = .seconds(10)

    let metrics: Metrics
    let logger: Logger
    let measure: @Sendable () async throws -> Int

    init(metrics: Metrics, logger: Logger, measure: @escaping @Sendable () async throws -> Int) {
        self.metrics = metrics
        self.logger = logger
        self.measure = measure
    }

    init(store: any DeliveryQueueStore, metrics: Metrics, logger: Logger) {
        self.init(metrics: metrics, logger: logger) { try await store.queueDepth() }
    }

    /// Measures once and records it.
    func runOnce() async throws {
        metrics.recordQueueDepth(try await measure())
    }

    /// Measures now, then every `interval`, until cancelled. A failed measurement keeps the last
    /// one and is logged.
    func run(interval: Duration = Self.interval) async {
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
