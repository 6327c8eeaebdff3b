import Foundation
import UserNotificationsShim

/// A delegate that records the responses it receives and calls its completion handler (unless told
/// not to).
final class RecordingDelegate: NSObject, UNUserNotificationCenterDelegate {
    let responses = Recorder<(actionIdentifier: String, requestIdentifier: String, userText: String?, thread: UInt)>()
    /// Whether each call came on the main queue (where `@MainActor` code runs; on Linux the main
    /// queue may be served by another thread than the process's first).
    let onMainThread = Recorder<Bool>()
    let completes: Bool
    /// What `willPresent` answers.
    let presentation: UNNotificationPresentationOptions

    init(completes: Bool = true, presentation: UNNotificationPresentationOptions = [.banner, .list, .sound]) {
        self.completes = completes
        self.presentation = presentation
    }

    // The portable forms: no `@Sendable` where Apple's iOS 16 declaration has none (a delegate
    // written so compiles against both that SDK and newer ones, which add it).
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
        onMainThread.record(isOnMainQueue())
        completionHandler(presentation)
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping () -> Void) {
        onMainThread.record(isOnMainQueue())
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

private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the caller runs on the main dispatch queue.
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) ?? false
}
