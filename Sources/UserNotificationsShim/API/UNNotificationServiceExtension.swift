public import Foundation

/// An object that modifies the content of a remote notification before it's delivered to the user
/// (Apple's `UNNotificationServiceExtension`). Subclass it and override
/// `didReceive(_:withContentHandler:)`.
///
/// In the simulation (`SimulatedDevice.deliver`) the system calls `didReceive` on a background
/// thread, only for a notification with `mutable-content` 1 and alert text, and gives it a time
/// budget (30 s by default); if the handler has not been called by then, it calls
/// `serviceExtensionTimeWillExpire()` on a separate thread and, if the handler is still not called
/// after a short grace period, shows the original content.
open class UNNotificationServiceExtension: NSObject {
    /// Creates the extension; the system does this once per process on iOS.
    public override init() {
        super.init()
    }

    /// Called with the request of an incoming remote notification; call `contentHandler` exactly
    /// once with the content to show.
    ///
    /// Apple requires subclasses to override this and does not document the base behaviour; here the
    /// base hands back the request's content unchanged.
    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        contentHandler(request.content)
    }

    /// Called just before the system terminates the extension: call the content handler now with
    /// your best attempt, or the system shows the original content. Called on a separate thread.
    open func serviceExtensionTimeWillExpire() {}
}
