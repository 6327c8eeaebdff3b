import struct FoundationEssentials.Date

/// The wall-clock time that provider tokens carry (`iat`, `exp`), injected so tests can move it.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that reads `now`.
    public init(_ now: @escaping @Sendable () -> Date) { read = now }

    /// The current time.
    public func now() -> Date { read() }

    /// The system clock.
    public static let system = WallClock { Date() }
}
