import Foundation

/// An action that accepts user-typed text (Apple's `UNTextInputNotificationAction`). Immutable.
public class UNTextInputNotificationAction: UNNotificationAction {
    /// The localized title of the text input button that's displayed to the user.
    public let textInputButtonTitle: String
    /// The localized placeholder text to display in the text input field.
    public let textInputPlaceholder: String

    init(actionIdentifier identifier: String, title: String, options: UNNotificationActionOptions, icon: UNNotificationActionIcon?,
         textInputButtonTitle: String, textInputPlaceholder: String) {
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
        super.init(actionIdentifier: identifier, title: title, options: options, icon: icon)
    }

    /// Creates an action object that accepts text input from the user.
    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [],
                            textInputButtonTitle: String, textInputPlaceholder: String) {
        self.init(actionIdentifier: identifier, title: title, options: options, icon: nil,
                  textInputButtonTitle: textInputButtonTitle, textInputPlaceholder: textInputPlaceholder)
    }

    /// Creates an action object with an icon that accepts text input from the user.
    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?,
                            textInputButtonTitle: String, textInputPlaceholder: String) {
        self.init(actionIdentifier: identifier, title: title, options: options, icon: icon,
                  textInputButtonTitle: textInputButtonTitle, textInputPlaceholder: textInputPlaceholder)
    }

    /// Equal when the action parts and both text fields are equal.
    public override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? UNTextInputNotificationAction else { return false }
        return textInputButtonTitle == other.textInputButtonTitle && textInputPlaceholder == other.textInputPlaceholder
    }
}
