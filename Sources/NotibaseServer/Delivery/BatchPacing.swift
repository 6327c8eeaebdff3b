/// The size of the next fan-out batch: the configured size while batches commit quickly, halved
/// while one takes longer than ``slow`` (a busy database, a slow backend), and grown back while
/// they are quick. Everything the fan-out does waits for the batch in progress, so this bounds how
/// long a message posted during a large fan-out waits for its turn. On SQLite every request waits
/// for it too (one connection), so ``slow`` is short: with 250 ms, the store calls of a one-device
/// message's post and of its sending each waited up to that long, and it took about a second to go
/// out during a million-device fan-out; with 60 ms, a third of that (docs/benchmarks.md).
struct BatchPacing: Sendable {
    let maximum: Int
    let minimum: Int
    private(set) var size: Int

    static let slow: Duration = .milliseconds(60)
    static let quick: Duration = .milliseconds(25)

    static let defaultMinimum = 250

    init(maximum: Int, minimum: Int = defaultMinimum) {
        self.maximum = max(1, maximum)
        self.minimum = min(max(1, minimum), self.maximum)
        size = self.maximum
    }

    mutating func record(_ took: Duration) {
        if took > Self.slow {
            size = max(minimum, size / 2)
        } else if took < Self.quick {
            size = min(maximum, size * 2)
        }
    }
}
