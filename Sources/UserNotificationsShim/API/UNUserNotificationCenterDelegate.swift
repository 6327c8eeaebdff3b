public import Foundation

/// An interface for processing incoming notifications and responding to notification actions
/// (Apple's `UNUserNotificationCenterDelegate`).
///
/// Difference from Apple: the methods are `@objc optional` there, which Swift on Linux cannot
/// declare. Here they are ordinary requirements with default implementations, so a conforming type
/// implements only what it needs, as on iOS; the one thing that does not compile here is calling a
/// requirement with optional chaining (`delegate.userNotificationCenter?(…)`).
/// The system calls the completion-handler forms. Their defaults forward to the `async` forms, so a
/// delegate may implement either, as on iOS; the default `async` forms do what iOS does for a
/// delegate without the method (present nothing in the foreground, ignore responses).
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    /// Asks the delegate how to handle a notification that arrived while the app was running in
    /// the foreground.
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void)

    /// Asks the delegate how to handle a notification that arrived while the app was running in
    /// the foreground.
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions

    /// Asks the delegate to process the user's response to a delivered notification. Call the
    /// completion handler when done.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping @Sendable () -> Void)

    /// Asks the delegate to process the user's response to a delivered notification.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async

    /// Asks the delegate to display the in-app notification settings.
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

extension UNUserNotificationCenterDelegate {
    /// Default: forwards to the `async` form.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                       withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void) {
        let call = Unchecked((self as any UNUserNotificationCenterDelegate, center, notification))
        Task {
            let (delegate, center, notification) = call.value
            completionHandler(await delegate.userNotificationCenter(center, willPresent: notification))
        }
    }

    /// Default: presents nothing, as iOS does for a delegate without this method.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions {
        []
    }

    /// Default: forwards to the `async` form.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                       withCompletionHandler completionHandler: @escaping @Sendable () -> Void) {
        let call = Unchecked((self as any UNUserNotificationCenterDelegate, center, response))
        Task {
            let (delegate, center, response) = call.value
            await delegate.userNotificationCenter(center, didReceive: response)
            completionHandler()
        }
    }

    /// Default: ignores the response, as iOS does for a delegate without this method.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}

    /// Default: does nothing.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {}
}
