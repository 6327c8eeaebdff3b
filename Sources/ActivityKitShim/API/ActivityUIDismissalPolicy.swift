public import Foundation

/// When an ended activity leaves the Lock Screen. (Not `Sendable`, as in Apple's interface: the two
/// constants are immutable, hence `nonisolated(unsafe)`.)
public struct ActivityUIDismissalPolicy: Equatable {
    let date: Date?
    let immediately: Bool

    /// The system's choice: up to four hours after it ended.
    nonisolated(unsafe) public static let `default` = ActivityUIDismissalPolicy(date: nil, immediately: false)
    /// At once.
    nonisolated(unsafe) public static let immediate = ActivityUIDismissalPolicy(date: nil, immediately: true)

    /// At `date` (within four hours of the end).
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy {
        ActivityUIDismissalPolicy(date: date, immediately: false)
    }
}
