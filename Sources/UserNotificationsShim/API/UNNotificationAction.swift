public import Foundation

/// A task your app performs in response to a notification (Apple's `UNNotificationAction`): one
/// button of a category. Immutable.
public class UNNotificationAction: NSObject, NSCopying {
    /// The unique string that your app uses to identify the action.
    public let identifier: String
    /// The localized string to use as the title of the action.
    public let title: String
    /// The behaviors associated with the action.
    public let options: UNNotificationActionOptions
    /// The icon associated with the action.
    public let icon: UNNotificationActionIcon?

    init(actionIdentifier identifier: String, title: String, options: UNNotificationActionOptions, icon: UNNotificationActionIcon?) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
        super.init()
    }

    /// Creates an action object by using the specified title and options.
    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(actionIdentifier: identifier, title: title, options: options, icon: nil)
    }

    /// Creates an action object by using the specified title, options, and icon.
    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?) {
        self.init(actionIdentifier: identifier, title: title, options: options, icon: icon)
    }

    /// Returns the receiver: actions are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// Actions are equal when every property is equal (and both are, or neither is, text input).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationAction, type(of: other) == type(of: self) else { return false }
        return identifier == other.identifier && title == other.title && options == other.options && icon == other.icon
    }

    /// A hash consistent with `isEqual(_:)`.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(identifier)
        hasher.combine(title)
        hasher.combine(options.rawValue)
        return hasher.finalize()
    }

    /// The identifier and title, for test failure messages.
    public override var description: String {
        "<\(type(of: self)) \(identifier) \"\(title)\" options=\(options.rawValue)>"
    }
}
