public import Foundation

/// The central object for managing notification-related activities for your app or app extension
/// (Apple's `UNUserNotificationCenter`).
///
/// `current()` returns the center of the simulated device bound to the current task
/// (`SimulatedDevice.bound`), or of `SimulatedDevice.default`. Usable from any thread; requests are
/// processed in the order they are made. Reads answer later, on the system's thread, after the
/// device's `readLatency`.
public class UNUserNotificationCenter: NSObject {
    let system: NotificationSystem
    private let delegateStorage = Locked(WeakDelegate())

    private struct WeakDelegate {
        weak var delegate: (any UNUserNotificationCenterDelegate)?
    }

    init(system: NotificationSystem) {
        self.system = system
        super.init()
    }

    /// Returns your app's notification center: the center of `SimulatedDevice.current`.
    public class func current() -> UNUserNotificationCenter {
        SimulatedDevice.current.center
    }

    /// The notification center's delegate; held weakly, as on iOS.
    public var delegate: (any UNUserNotificationCenterDelegate)? {
        get { delegateStorage.withLock { $0.delegate } }
        set { delegateStorage.withLock { $0.delegate = newValue } }
    }

    // MARK: Categories

    /// Registers the notification categories that your app supports, replacing every category
    /// registered before: the set is not merged. To add one, read the current set, insert yours and
    /// write the union back.
    public func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        system.setCategories(categories)
    }

    /// Fetches the app's registered notification categories: the set as of this call, delivered
    /// later on a background thread (empty if none were registered).
    public func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        system.readCategories(completionHandler)
    }

    /// Fetches the app's registered notification categories.
    public func notificationCategories() async -> Set<UNNotificationCategory> {
        let system = system
        return await withUnsafeContinuation { continuation in
            system.readCategories { continuation.resume(returning: Unchecked($0)) }
        }.value
    }

    // MARK: Delivered notifications

    /// Fetches the notifications still shown in Notification Center, delivered later on a
    /// background thread.
    public func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        system.readDelivered(completionHandler)
    }

    /// Fetches the notifications still shown in Notification Center.
    public func deliveredNotifications() async -> [UNNotification] {
        let system = system
        return await withUnsafeContinuation { continuation in
            system.readDelivered { continuation.resume(returning: Unchecked($0)) }
        }.value
    }

    /// Removes the specified notifications from Notification Center.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        system.removeDelivered(identifiers: identifiers)
    }

    /// Removes all of the app's delivered notifications from Notification Center.
    public func removeAllDeliveredNotifications() {
        system.removeAllDelivered()
    }

    // MARK: Authorization

    /// Requests a person's authorization to allow local and remote notifications for your app.
    /// The first call prompts (the simulated person answers `SimulatedDevice.authorizationAnswer`);
    /// later calls don't prompt again and get the first answer. With
    /// `SimulatedDevice.authorizationFailure` set, it fails: `false` and that error.
    public func requestAuthorization(options: UNAuthorizationOptions = [],
                                     completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        system.requestAuthorization { completionHandler($0, $1) }
    }

    /// Requests a person's authorization to allow local and remote notifications for your app.
    /// Throws when the request fails (`SimulatedDevice.authorizationFailure`); a refusal is `false`.
    public func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        let system = system
        let (granted, failure) = await withUnsafeContinuation { continuation in
            system.requestAuthorization { continuation.resume(returning: ($0, $1)) }
        }
        if let failure { throw failure }
        return granted
    }
}
