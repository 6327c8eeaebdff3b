package import NotibaseCore
@preconcurrency import UserNotificationsShim
import NotibaseExtension

/// A category an app registers itself, as `notibase preview --categories` reads it:
/// `{"identifier": "INVITATION", "buttons": [<nb_buttons shape>], "customDismissAction": true}`.
package struct AppCategory: Sendable, Hashable, Codable {
    /// The category identifier the app registers.
    package var identifier: String
    /// Its actions, in the `nb_buttons` shape.
    package var buttons: [Button]
    /// Whether the app asks to hear about dismissals.
    package var customDismissAction: Bool?

    package init(identifier: String, buttons: [Button], customDismissAction: Bool? = nil) {
        self.identifier = identifier
        self.buttons = buttons
        self.customDismissAction = customDismissAction
    }

    /// The UserNotifications category the app would register.
    func makeCategory() -> UNNotificationCategory {
        UNNotificationCategory(
            identifier: identifier, actions: buttons.map(UNNotificationAction.notibase), intentIdentifiers: [],
            options: customDismissAction == true ? [.customDismissAction] : [])
    }
}
