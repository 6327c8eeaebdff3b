public import Foundation

/// The action identifier for the user opening the app from the notification interface (Apple's
/// value).
public let UNNotificationDefaultActionIdentifier: String = "com.apple.UNNotificationDefaultActionIdentifier"

/// The action identifier for the user explicitly dismissing the notification interface (Apple's
/// value). Delivered only when the category has `customDismissAction`.
public let UNNotificationDismissActionIdentifier: String = "com.apple.UNNotificationDismissActionIdentifier"

/// The user's response to an actionable notification (Apple's `UNNotificationResponse`). Only the
/// system creates them. Immutable.
public class UNNotificationResponse: NSObject, NSCopying {
    /// The notification to which the user responded.
    public let notification: UNNotification
    /// The identifier string of the action that the user selected, or one of
    /// `UNNotificationDefaultActionIdentifier` and `UNNotificationDismissActionIdentifier`.
    public let actionIdentifier: String

    init(notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        super.init()
    }

    /// Returns the receiver: responses are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }
}
