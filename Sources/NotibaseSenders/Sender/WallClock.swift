package import struct FoundationEssentials.Date

/// The wall-clock time that provider tokens carry (`iat`, `exp`), injected so tests can move it.
package struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that reads `now`.
    package init(_ now: @escaping @Sendable () -> Date) { read = now }

    /// The current time.
    package func now() -> Date { read() }

    package static let system = WallClock { Date() }
}
