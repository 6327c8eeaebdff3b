public import Foundation

/// A type of notification your app supports and the custom actions that the system displays
/// (Apple's `UNNotificationCategory`). Immutable.
///
/// The system draws a notification's buttons from the category registered with
/// `UNUserNotificationCenter.setNotificationCategories(_:)` under the notification's
/// `categoryIdentifier`; a payload's `aps.category` is only that lookup key.
///
/// Categories compare by value (every property), as sets of categories are what the center stores.
public class UNNotificationCategory: NSObject, NSCopying {
    /// The unique string assigned to the category.
    public let identifier: String
    /// The actions to display when the system delivers notifications of this type, in order.
    public let actions: [UNNotificationAction]
    /// The intents related to notifications of this category.
    public let intentIdentifiers: [String]
    /// The placeholder text to display when the system disables notification previews for the app.
    public let hiddenPreviewsBodyPlaceholder: String
    /// A format string for the summary description used when the system groups the category's
    /// notifications.
    public let categorySummaryFormat: String
    /// Options for how to handle notifications of this type.
    public let options: UNNotificationCategoryOptions

    init(categoryIdentifier identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
         hiddenPreviewsBodyPlaceholder: String, categorySummaryFormat: String, options: UNNotificationCategoryOptions) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.categorySummaryFormat = categorySummaryFormat
        self.options = options
        super.init()
    }

    /// Creates a category object containing the specified actions and options.
    public convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                            options: UNNotificationCategoryOptions = []) {
        self.init(categoryIdentifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
                  hiddenPreviewsBodyPlaceholder: "", categorySummaryFormat: "", options: options)
    }

    /// Creates a category object containing the specified actions, options, and placeholder text
    /// used when previews aren't shown.
    public convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                            hiddenPreviewsBodyPlaceholder: String, options: UNNotificationCategoryOptions = []) {
        self.init(categoryIdentifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
                  hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder, categorySummaryFormat: "", options: options)
    }

    /// Creates a category object containing the specified actions, options, placeholder text used
    /// when previews aren't shown, and summary format string.
    public convenience init(identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
                            hiddenPreviewsBodyPlaceholder: String?, categorySummaryFormat: String?,
                            options: UNNotificationCategoryOptions = []) {
        self.init(categoryIdentifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
                  hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder ?? "",
                  categorySummaryFormat: categorySummaryFormat ?? "", options: options)
    }

    /// Returns the receiver: categories are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// Categories are equal when every property is equal.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationCategory else { return false }
        return identifier == other.identifier
            && actions == other.actions
            && intentIdentifiers == other.intentIdentifiers
            && hiddenPreviewsBodyPlaceholder == other.hiddenPreviewsBodyPlaceholder
            && categorySummaryFormat == other.categorySummaryFormat
            && options == other.options
    }

    /// A hash consistent with `isEqual(_:)`.
    public override var hash: Int {
        identifier.hashValue
    }

    /// The identifier and the action identifiers, for test failure messages.
    public override var description: String {
        "<UNNotificationCategory \(identifier) actions=\(actions.map(\.identifier)) options=\(options.rawValue)>"
    }
}
