public import Foundation

/// The editable content for a notification (Apple's `UNMutableNotificationContent`).
///
/// Every setter takes the object's lock, so concurrent reads and writes don't tear; a service
/// extension that edits one object from several threads still has to order its own edits.
public class UNMutableNotificationContent: UNNotificationContent {
    /// The localized text that provides the notification's primary description.
    public override var title: String {
        get { read(\.title) }
        set { write(\.title, newValue) }
    }
    /// The localized text that provides the notification's secondary description.
    public override var subtitle: String {
        get { read(\.subtitle) }
        set { write(\.subtitle, newValue) }
    }
    /// The localized text that provides the notification's main content.
    public override var body: String {
        get { read(\.body) }
        set { write(\.body, newValue) }
    }
    /// The number to display as the app's icon badge (`nil` leaves it unchanged, 0 removes it).
    public override var badge: NSNumber? {
        get { read(\.badge) }
        set { write(\.badge, newValue) }
    }
    /// The sound to play when the system delivers the notification.
    public override var sound: UNNotificationSound? {
        get { read(\.sound) }
        set { write(\.sound, newValue) }
    }
    /// The name of the launch image to display when your app launches in response to the notification.
    public override var launchImageName: String {
        get { read(\.launchImageName) }
        set { write(\.launchImageName, newValue) }
    }
    /// A dictionary of custom information associated with the notification.
    public override var userInfo: [AnyHashable: Any] {
        get { read(\.userInfo) }
        set { write(\.userInfo, newValue) }
    }
    /// The identifier of the category to draw buttons from.
    public override var categoryIdentifier: String {
        get { read(\.categoryIdentifier) }
        set { write(\.categoryIdentifier, newValue) }
    }
    /// The identifier that groups related notifications.
    public override var threadIdentifier: String {
        get { read(\.threadIdentifier) }
        set { write(\.threadIdentifier, newValue) }
    }
    /// The visual and audio attachments to display alongside the notification's main content.
    public override var attachments: [UNNotificationAttachment] {
        get { read(\.attachments) }
        set { write(\.attachments, newValue) }
    }
    /// The notification's importance and required delivery timing.
    public override var interruptionLevel: UNNotificationInterruptionLevel {
        get { read(\.interruptionLevel) }
        set { write(\.interruptionLevel, newValue) }
    }
    /// The score the system uses to determine if the notification is the featured one (0…1).
    public override var relevanceScore: Double {
        get { read(\.relevanceScore) }
        set { write(\.relevanceScore, newValue) }
    }
    /// The value your app uses to determine which scene to display to handle the notification.
    public override var targetContentIdentifier: String? {
        get { read(\.targetContentIdentifier) }
        set { write(\.targetContentIdentifier, newValue) }
    }
}
