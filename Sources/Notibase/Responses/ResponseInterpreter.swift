import Foundation
import NotibaseCore
#if canImport(UserNotifications)
@preconcurrency import UserNotifications
#else
@preconcurrency import UserNotificationsShim
#endif

/// What a response means: the receipt to send and the place to open.
enum ResponseInterpreter {
    /// The receipt (nil for a notification Notibase did not send) and the destination: the tapped
    /// button's deep link, else the notification's own; nothing for a dismissal.
    static func interpret(payload: NotificationPayload, actionIdentifier: String, typedText: String?, at date: Date) -> (Receipt?, URL?) {
        let event: Receipt.Event
        var actionID: String?
        var destination: String?
        switch actionIdentifier {
        case UNNotificationDefaultActionIdentifier:
            event = .opened
            destination = payload.url
        case UNNotificationDismissActionIdentifier:
            event = .dismissed
        default:
            event = .action
            actionID = actionIdentifier
            destination = payload.buttons.first { $0.id == actionIdentifier }?.url ?? payload.url
        }
        let url = destination.flatMap(URL.init(string:))
        guard let deliveryID = payload.deliveryID else { return (nil, url) }
        let receipt = Receipt(
            id: UUID().uuidString.lowercased(), deliveryID: deliveryID, messageID: payload.messageID, event: event, occurredAt: date,
            actionID: actionID, text: event == .action ? typedText : nil)
        return (receipt, url)
    }
}
