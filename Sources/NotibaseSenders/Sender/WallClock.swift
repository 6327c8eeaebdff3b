package import struct FoundationEssentials.Date

/// The wall-clock time, injected so tests can move it: the server's clock (what it stores and
/// schedules by, in milliseconds since 1970) and the time provider tokens carry (`iat`, `exp`).
package struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that reads `now`.
    package init(_ now: @escaping @Sendable () -> Date) { read = now }

    /// The current time.
    package func now() -> Date { read() }

    package static let system = WallClock { Date() }
}
