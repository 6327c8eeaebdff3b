public import NotibaseCore

/// The system's category registry, seen through the one operation Notibase needs: read the set,
/// decide, write the union back — with the app's own categories passed through untouched.
///
/// The decision is made from identifiers alone (``CategoryChange``), so the logic is testable
/// without UserNotifications; the store keeps the system's category objects to itself.
public protocol CategoryStore: Sendable {
    /// Reads the registered categories and calls `decide` with their identifiers. When `decide`
    /// returns a change, writes the set back with it applied. Returns the change made (nil when
    /// `decide` chose none). Throws ``CategoryStoreError/readTimedOut`` when the read does not
    /// answer within `timeout`; then nothing is written, not even later.
    func update(timeout: Duration, _ decide: @escaping @Sendable (_ registered: Set<String>) -> CategoryChange?)
        async throws(CategoryStoreError) -> CategoryChange?

    /// The category identifiers of the notifications still shown in Notification Center.
    func deliveredCategoryIdentifiers(timeout: Duration) async throws(CategoryStoreError) -> Set<String>
}

/// A change to the registered categories: one category to add, owned ones to remove.
public struct CategoryChange: Sendable, Hashable {
    /// The category to register: its identifier and the buttons it draws.
    public var add: (identifier: String, buttons: [Button])?
    /// Notibase-owned identifiers to drop (least recently used, shown by no notification).
    public var remove: Set<String>

    /// A change from its parts.
    public init(add: (identifier: String, buttons: [Button])?, remove: Set<String> = []) {
        self.add = add
        self.remove = remove
    }

    public static func == (lhs: CategoryChange, rhs: CategoryChange) -> Bool {
        lhs.add?.identifier == rhs.add?.identifier && lhs.add?.buttons == rhs.add?.buttons && lhs.remove == rhs.remove
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(add?.identifier)
        hasher.combine(remove)
    }
}

/// Why the category registry could not be used.
public enum CategoryStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system did not answer the read in time; nothing was written.
    case readTimedOut
    /// Another process (the app) holds the registry lock for too long.
    case lockTimedOut
    /// The lock file cannot be opened (data protection while the phone is locked, a missing
    /// container): treated as a lock held by someone else, never as no lock needed.
    case lockUnavailable
    /// The notification was finished early (its deadline, `serviceExtensionTimeWillExpire`): the
    /// registration let go of the lock, or never took it, and wrote nothing.
    case abandoned

    public var description: String {
        switch self {
        case .readTimedOut: "the system did not return the registered categories in time; nothing was written"
        case .lockTimedOut: "the app held the category lock too long; nothing was written"
        case .lockUnavailable: "the category lock file could not be opened (data protection while locked?); nothing was written"
        case .abandoned:
            "the deadline passed while registering; the registration was abandoned, letting go of the lock shared with the app "
                + "(iOS kills a process suspended while holding one); nothing was written"
        }
    }
}
