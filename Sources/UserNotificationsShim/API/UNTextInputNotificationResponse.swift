import Foundation

/// The user's response to an actionable notification, including any custom text that the user
/// typed or dictated (Apple's `UNTextInputNotificationResponse`). Immutable.
public class UNTextInputNotificationResponse: UNNotificationResponse {
    /// The text response provided by the user; empty if the user entered no text.
    public let userText: String

    init(notification: UNNotification, actionIdentifier: String, userText: String) {
        self.userText = userText
        super.init(notification: notification, actionIdentifier: actionIdentifier)
    }
}
