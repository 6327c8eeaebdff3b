import Foundation
import NotibaseCore
#if canImport(UserNotifications)
@preconcurrency import UserNotifications
#else
@preconcurrency import UserNotificationsShim
#endif

/// What a response means: the receipts to send and the place to open.
enum ResponseInterpreter {
    /// The receipts (none for a notification Notibase did not send) and the destination: the tapped
    /// button's deep link, else the notification's own; nothing for a dismissal or a background
    /// action. Tapping the notification is `opened`; a button is `action` (with the typed text of a
    /// reply button), and also `opened` when the button brings the app to the foreground.
    static func interpret(payload: NotificationPayload, actionIdentifier: String, typedText: String?, at date: Date) -> ([Receipt], URL?) {
        var events: [(Receipt.Event, actionID: String?)] = []
        var destination: String?
        switch actionIdentifier {
        case UNNotificationDefaultActionIdentifier:
            events = [(.opened, nil)]
            destination = payload.url
        case UNNotificationDismissActionIdentifier:
            events = [(.dismissed, nil)]
        default:
            events = [(.action, actionIdentifier)]
            let button = payload.buttons.first { $0.id == actionIdentifier }
            if button?.options.contains(.foreground) ?? true {
                events.append((.opened, nil))
                destination = button?.url ?? payload.url
            }
        }
        let url = destination.flatMap(URL.init(string:))
        guard let deliveryID = payload.deliveryID else { return ([], url) }
        // A millisecond apart, so the log orders the action before the opening it caused.
        let receipts = events.enumerated().map { index, entry in
            Receipt(
                id: UUID().uuidString.lowercased(), deliveryID: deliveryID, messageID: payload.messageID, event: entry.0,
                occurredAt: date.addingTimeInterval(Double(index) / 1000), actionID: entry.actionID,
                text: entry.0 == .action ? typedText : nil, signature: payload.receiptSignature)
        }
        return (receipts, url)
    }
}
