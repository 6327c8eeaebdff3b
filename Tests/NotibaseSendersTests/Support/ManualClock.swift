import Foundation
import Synchronization
import NotibaseSenders

/// A wall clock that moves only when a test says so.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date()) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(minutes: Double) {
        current.withLock { $0 = $0.addingTimeInterval(minutes * 60) }
    }

    var wallClock: WallClock {
        WallClock { [self] in now }
    }
}
