// Written the way a portable extension must be: the same source compiles against Apple's framework
// on iOS and against the shim on Linux. `@preconcurrency` is what lets it capture the center and the
// content in the center's `@Sendable` completion handlers, on both platforms; the content handler,
// which Apple declares without `@Sendable`, still has to travel in a box.
import Foundation
#if canImport(UserNotifications)
@preconcurrency import UserNotifications
#else
@preconcurrency import UserNotificationsShim
#endif

/// Registers a category for the payload's `test_buttons` (a list of button ids) under the
/// payload's `aps.category`, then hands back the content.
///
/// `merge` reads the registered set and writes back the union (the fix); otherwise it writes only
/// its own category (the classic bug). `serialize` runs that read-modify-write one notification at
/// a time across the process; otherwise concurrent notifications can lose each other's categories.
final class MergingServiceExtension: UNNotificationServiceExtension {
    let merge: Bool
    let serialize: Bool

    /// One read-modify-write of the registry at a time, process-wide (several notifications can
    /// arrive together, each on its own thread).
    private static let registration = DispatchSemaphore(value: 1)

    init(merge: Bool = true, serialize: Bool = true) {
        self.merge = merge
        self.serialize = serialize
    }

    override func didReceive(_ request: UNNotificationRequest,
                             withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let deliver = HandlerBox(contentHandler)
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            return contentHandler(request.content)
        }
        let buttons = content.userInfo["test_buttons"] as? [String] ?? []
        guard !buttons.isEmpty, !content.categoryIdentifier.isEmpty else {
            return contentHandler(content)
        }
        let category = UNNotificationCategory(
            identifier: content.categoryIdentifier,
            actions: buttons.map { UNNotificationAction(identifier: $0, title: $0.capitalized, options: [.foreground]) },
            intentIdentifiers: [], options: [])
        let center = UNUserNotificationCenter.current()
        guard merge else {
            center.setNotificationCategories([category])
            return contentHandler(content)
        }
        let serialize = serialize
        if serialize { Self.registration.wait() }
        center.getNotificationCategories { registered in
            center.setNotificationCategories(registered.filter { $0.identifier != category.identifier }.union([category]))
            if serialize { Self.registration.signal() }
            deliver.call(content)
        }
    }
}

/// Carries the content handler into the center's `@Sendable` completion handler. Sound because the
/// system accepts the handler from any thread.
private struct HandlerBox: @unchecked Sendable {
    let call: (UNNotificationContent) -> Void
    init(_ call: @escaping (UNNotificationContent) -> Void) { self.call = call }
}
