public import Foundation

/// The uneditable content of a notification (Apple's `UNNotificationContent`).
///
/// Every property is read under the object's own lock, so the content can be read from any thread.
/// `mutableCopy()` returns a `UNMutableNotificationContent` with the same values and `copy()` an
/// immutable `UNNotificationContent`, as on iOS:
/// `request.content.mutableCopy() as? UNMutableNotificationContent` is how an extension edits it.
public class UNNotificationContent: NSObject, NSCopying, NSMutableCopying {
    private let lock = NSLock()
    private var fields: ContentFields

    /// Creates empty content. Apple discourages creating it directly; use
    /// `UNMutableNotificationContent`.
    public override init() {
        fields = ContentFields()
        super.init()
    }

    init(fields: ContentFields) {
        self.fields = fields
        super.init()
    }

    /// All values at once, read under the lock.
    var snapshot: ContentFields {
        lock.withLock { fields }
    }

    func read<Value>(_ field: KeyPath<ContentFields, Value>) -> Value {
        lock.withLock { fields[keyPath: field] }
    }

    func write<Value>(_ field: WritableKeyPath<ContentFields, Value>, _ value: Value) {
        lock.withLock { fields[keyPath: field] = value }
    }

    /// The localized text that provides the notification's primary description.
    public var title: String { read(\.title) }
    /// The localized text that provides the notification's secondary description.
    public var subtitle: String { read(\.subtitle) }
    /// The localized text that provides the notification's main content.
    public var body: String { read(\.body) }
    /// The number that your app's icon displays (`nil` leaves the badge unchanged, 0 removes it).
    public var badge: NSNumber? { read(\.badge) }
    /// The sound that plays when the system delivers the notification.
    public var sound: UNNotificationSound? { read(\.sound) }
    /// The name of the launch image to display when your app launches in response to the notification.
    public var launchImageName: String { read(\.launchImageName) }
    /// The custom data to associate with the notification; for a remote notification, the whole
    /// payload.
    public var userInfo: [AnyHashable: Any] { read(\.userInfo) }
    /// The identifier of the notification's category: the key the system looks up in the
    /// registered categories to draw buttons.
    public var categoryIdentifier: String { read(\.categoryIdentifier) }
    /// The identifier that groups related notifications.
    public var threadIdentifier: String { read(\.threadIdentifier) }
    /// The visual and audio attachments to display alongside the notification's main content.
    public var attachments: [UNNotificationAttachment] { read(\.attachments) }
    /// The notification's importance and required delivery timing.
    public var interruptionLevel: UNNotificationInterruptionLevel { read(\.interruptionLevel) }
    /// The score the system uses to determine if the notification is the featured one (0…1).
    public var relevanceScore: Double { read(\.relevanceScore) }
    /// The value your app uses to determine which scene to display to handle the notification.
    public var targetContentIdentifier: String? { read(\.targetContentIdentifier) }

    /// An immutable `UNNotificationContent` with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        UNNotificationContent(fields: snapshot)
    }

    /// A `UNMutableNotificationContent` with the same values.
    public func mutableCopy(with zone: NSZone? = nil) -> Any {
        UNMutableNotificationContent(fields: snapshot)
    }

    /// The title and category, for test failure messages.
    public override var description: String {
        let fields = snapshot
        return "<\(type(of: self)) title=\"\(fields.title)\" body=\"\(fields.body)\" category=\"\(fields.categoryIdentifier)\">"
    }
}
