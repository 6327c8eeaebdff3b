public import Foundation

/// The data for a local or remote notification the system delivers to your app (Apple's
/// `UNNotification`). Only the system creates them. Immutable.
public class UNNotification: NSObject, NSCopying {
    /// The delivery date of the notification.
    public let date: Date
    /// The notification request containing the payload and trigger condition for the notification.
    public let request: UNNotificationRequest

    init(date: Date, request: UNNotificationRequest) {
        self.date = date
        self.request = request
        super.init()
    }

    /// Returns the receiver: notifications are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }
}
