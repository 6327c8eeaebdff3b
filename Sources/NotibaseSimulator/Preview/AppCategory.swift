import NotibaseCore
@preconcurrency import UserNotificationsShim
import NotibaseExtension

/// A category an app registers itself, as `notibase preview --categories` reads it:
/// `{"identifier": "INVITATION", "buttons": [<nb_buttons shape>], "customDismissAction": true}`.
public struct AppCategory: Sendable, Hashable, Codable {
    /// The category identifier the app registers.
    public var identifier: String
    /// Its actions, in the `nb_buttons` shape.
    public var buttons: [Button]
    /// Whether the app asks to hear about dismissals.
    public var customDismissAction: Bool?

    /// A category from its parts.
    public init(identifier: String, buttons: [Button], customDismissAction: Bool? = nil) {
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
