/// Constants indicating how to present a notification in a foreground app (Apple's
/// `UNNotificationPresentationOptions`). Raw values as in Apple's SDK.
public struct UNNotificationPresentationOptions: OptionSet, Sendable {
    /// The raw bit mask.
    public let rawValue: UInt

    /// Creates options from a raw bit mask.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Apply the notification's badge value to the app's icon.
    public static var badge: UNNotificationPresentationOptions { UNNotificationPresentationOptions(rawValue: 1 << 0) }
    /// Play the sound associated with the notification.
    public static var sound: UNNotificationPresentationOptions { UNNotificationPresentationOptions(rawValue: 1 << 1) }
    /// Display the alert using the content provided by the notification (deprecated by Apple).
    @available(*, deprecated, message: "Use .list and .banner instead")
    public static var alert: UNNotificationPresentationOptions { UNNotificationPresentationOptions(rawValue: 1 << 2) }
    /// Show the notification in Notification Center.
    public static var list: UNNotificationPresentationOptions { UNNotificationPresentationOptions(rawValue: 1 << 3) }
    /// Present the notification as a banner.
    public static var banner: UNNotificationPresentationOptions { UNNotificationPresentationOptions(rawValue: 1 << 4) }
}
