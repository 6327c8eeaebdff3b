import Foundation

/// The time, injected so tests can set it.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that reads `now`.
    public init(_ now: @escaping @Sendable () -> Date) {
        read = now
    }

    /// The system clock.
    public static let system = WallClock { Date() }

    /// Now.
    public func now() -> Date { read() }

    /// Now, in milliseconds since 1970 (the unit the database stores).
    public func milliseconds() -> Int { Int((read().timeIntervalSince1970 * 1000).rounded(.down)) }
}

extension Date {
    init(milliseconds: Int) {
        self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}
