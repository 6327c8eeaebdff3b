/// The size of the next fan-out batch: the configured size while batches commit quickly, halved
/// while one takes longer than ``slow`` (a busy database, a slow backend), and grown back while
/// they take under ``quick``. What waits for the batch in progress (on SQLite, everything; see
/// ``Storage/fanOutBatchTarget``), so this bounds how long a message posted during a large
/// fan-out, and on SQLite every request, waits for its turn. While one-device messages arrive
/// (one came during the last batch), batches are the smallest: each of them waits for the batch
/// in progress, and the fan-out takes what they leave.
package struct BatchPacing: Sendable {
    package let maximum: Int
    package let minimum: Int
    package let slow: Duration
    /// Two fifths of ``slow``.
    package let quick: Duration
    package private(set) var size: Int

    package static let defaultMinimum = 250

    package init(maximum: Int, minimum: Int = defaultMinimum, slow: Duration = .milliseconds(250)) {
        self.maximum = max(1, maximum)
        self.minimum = min(max(1, minimum), self.maximum)
        self.slow = slow
        quick = slow * 2 / 5
        size = self.maximum
    }

    /// How long the last batch took, and whether a one-device message arrived meanwhile.
    package mutating func record(_ took: Duration, othersArrived: Bool = false) {
        if othersArrived {
            size = minimum
        } else if took > slow {
            size = max(minimum, size / 2)
        } else if took < quick {
            size = min(maximum, size * 2)
        }
    }
}
