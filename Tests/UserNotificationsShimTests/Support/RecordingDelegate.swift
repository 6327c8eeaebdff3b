import Foundation
import UserNotificationsShim

/// A delegate that records the responses it receives and calls its completion handler (unless told
/// not to).
final class RecordingDelegate: NSObject, UNUserNotificationCenterDelegate {
    let responses = Recorder<(actionIdentifier: String, requestIdentifier: String, userText: String?, thread: UInt)>()
    let completes: Bool

    init(completes: Bool = true) {
        self.completes = completes
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping @Sendable () -> Void) {
        responses.record((response.actionIdentifier, response.notification.request.identifier,
                          (response as? UNTextInputNotificationResponse)?.userText, currentThreadID()))
        if completes { completionHandler() }
    }
}

/// A delegate that implements only the `async` form, as iOS allows.
final class AsyncDelegate: NSObject, UNUserNotificationCenterDelegate {
    let actions = Recorder<String>()

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        actions.record(response.actionIdentifier)
    }
}
