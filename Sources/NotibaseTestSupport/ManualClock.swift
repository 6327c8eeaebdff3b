public import Foundation
package import NotibaseSenders
import Synchronization

/// A wall clock that moves only when a test says so.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// A clock that reads `start` until moved.
    public init(_ start: Date = Date()) { current = Mutex(start) }

    /// What it reads now.
    public var now: Date { current.withLock { $0 } }

    /// Moves it forward by `seconds`.
    public func advance(seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Moves it forward by `minutes`.
    public func advance(minutes: Double) {
        advance(seconds: minutes * 60)
    }

    /// It, as the wall clock the senders and the server take.
    package var wallClock: WallClock {
        WallClock { [self] in now }
    }
}
