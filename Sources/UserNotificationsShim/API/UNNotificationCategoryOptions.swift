/// Constants indicating how to handle notifications associated with a category (Apple's
/// `UNNotificationCategoryOptions`). Raw values as in Apple's SDK.
public struct UNNotificationCategoryOptions: OptionSet, Sendable {
    /// The raw bit mask.
    public let rawValue: UInt

    /// Creates options from a raw bit mask.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Send dismiss actions to the `UNUserNotificationCenter` object's delegate for handling.
    public static var customDismissAction: UNNotificationCategoryOptions { UNNotificationCategoryOptions(rawValue: 1 << 0) }
    /// Allow CarPlay to display notifications of this type.
    public static var allowInCarPlay: UNNotificationCategoryOptions { UNNotificationCategoryOptions(rawValue: 1 << 1) }
    /// Show the notification's title, even if the user has disabled notification previews.
    public static var hiddenPreviewsShowTitle: UNNotificationCategoryOptions { UNNotificationCategoryOptions(rawValue: 1 << 2) }
    /// Show the notification's subtitle, even if the user has disabled notification previews.
    public static var hiddenPreviewsShowSubtitle: UNNotificationCategoryOptions { UNNotificationCategoryOptions(rawValue: 1 << 3) }
    /// Allow Siri to automatically read out messages (deprecated by Apple).
    @available(*, deprecated, message: "Announcement option is ignored")
    public static var allowAnnouncement: UNNotificationCategoryOptions { UNNotificationCategoryOptions(rawValue: 1 << 4) }
}
