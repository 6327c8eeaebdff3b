/// Options that determine the authorized features of local and remote notifications (Apple's
/// `UNAuthorizationOptions`). Raw values as in Apple's SDK.
public struct UNAuthorizationOptions: OptionSet, Sendable {
    /// The raw bit mask.
    public let rawValue: UInt

    /// Creates options from a raw bit mask.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The ability to update the app's badge.
    public static var badge: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 0) }
    /// The ability to play sounds.
    public static var sound: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 1) }
    /// The ability to display alerts.
    public static var alert: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 2) }
    /// The ability to display notifications in a CarPlay environment.
    public static var carPlay: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 3) }
    /// The ability to play sounds for critical alerts (needs an entitlement from Apple).
    public static var criticalAlert: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 4) }
    /// An option indicating the system should display a button for in-app notification settings.
    public static var providesAppNotificationSettings: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 5) }
    /// The ability to post noninterrupting notifications provisionally to the Notification Center.
    public static var provisional: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 6) }
    /// The ability for Siri to automatically read out messages over AirPods (deprecated by Apple).
    @available(*, deprecated, message: "Announcement authorization is always included")
    public static var announcement: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 7) }
    /// The ability to send time-sensitive notifications (deprecated by Apple).
    @available(*, deprecated, message: "Use the time-sensitive entitlement instead")
    public static var timeSensitive: UNAuthorizationOptions { UNAuthorizationOptions(rawValue: 1 << 8) }
}
