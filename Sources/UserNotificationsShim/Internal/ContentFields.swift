import Foundation

/// The values a notification's content carries; `UNNotificationContent` keeps one behind its lock
/// and copies hand it on whole.
struct ContentFields {
    var title = ""
    var subtitle = ""
    var body = ""
    var badge: NSNumber?
    var sound: UNNotificationSound?
    var launchImageName = ""
    var userInfo: [AnyHashable: Any] = [:]
    var categoryIdentifier = ""
    var threadIdentifier = ""
    var attachments: [UNNotificationAttachment] = []
    var interruptionLevel: UNNotificationInterruptionLevel = .active
    var relevanceScore: Double = 0
    var targetContentIdentifier: String?

    /// Whether iOS counts this as an alert: a title, subtitle or body to show. Without one the
    /// system neither runs a service extension nor accepts the content it returns.
    var hasAlertText: Bool {
        !title.isEmpty || !subtitle.isEmpty || !body.isEmpty
    }
}
