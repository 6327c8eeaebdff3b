/// The behaviors you can apply to an action (Apple's `UNNotificationActionOptions`). Raw values as
/// in Apple's SDK.
public struct UNNotificationActionOptions: OptionSet, Sendable {
    /// The raw bit mask.
    public let rawValue: UInt

    /// Creates options from a raw bit mask.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The action can be performed only on an unlocked device.
    public static var authenticationRequired: UNNotificationActionOptions { UNNotificationActionOptions(rawValue: 1 << 0) }
    /// The action performs a destructive task (shown with special highlighting).
    public static var destructive: UNNotificationActionOptions { UNNotificationActionOptions(rawValue: 1 << 1) }
    /// The action causes the app to launch in the foreground.
    public static var foreground: UNNotificationActionOptions { UNNotificationActionOptions(rawValue: 1 << 2) }
}
