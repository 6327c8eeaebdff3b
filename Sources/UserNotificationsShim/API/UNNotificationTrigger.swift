public import Foundation

/// The common behavior for subclasses that trigger the delivery of a local or remote notification
/// (Apple's `UNNotificationTrigger`). Only the system creates triggers here.
public class UNNotificationTrigger: NSObject, NSCopying {
    /// A Boolean value indicating whether the system reschedules the notification after it's delivered.
    public let repeats: Bool

    init(repeats: Bool) {
        self.repeats = repeats
        super.init()
    }

    /// Returns the receiver: triggers are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }
}

/// A trigger condition that indicates Apple Push Notification service sent the notification
/// (Apple's `UNPushNotificationTrigger`); the trigger of every simulated remote notification.
public class UNPushNotificationTrigger: UNNotificationTrigger {
    init() {
        super.init(repeats: false)
    }
}
