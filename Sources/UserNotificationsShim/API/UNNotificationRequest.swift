public import Foundation

/// A request to schedule a local notification, or the request the system built for a remote one
/// (Apple's `UNNotificationRequest`). Immutable.
public class UNNotificationRequest: NSObject, NSCopying {
    /// The unique identifier for this notification request. A new notification with the same
    /// identifier replaces the one already shown.
    public let identifier: String
    /// The content associated with the notification: an immutable copy of what was passed in, so
    /// editing that object afterwards does not change the request (Apple declares it `@NSCopying`).
    public let content: UNNotificationContent
    /// The conditions that trigger the delivery of the notification; `nil` delivers right away.
    public let trigger: UNNotificationTrigger?

    /// Creates a notification request object that you use to schedule a notification.
    public convenience init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.init(requestIdentifier: identifier, content: content, trigger: trigger)
    }

    init(requestIdentifier identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = UNNotificationContent(fields: content.snapshot)
        self.trigger = trigger
        super.init()
    }

    /// Returns the receiver: requests are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }
}
