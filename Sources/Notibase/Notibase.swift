public import Foundation
import NotibaseCore
import NotibaseExtension
#if canImport(UserNotifications)
@preconcurrency public import UserNotifications
#else
@preconcurrency public import UserNotificationsShim
#endif

/// The app side of Notibase: device registration, what the user did with each notification, the
/// deep link to open, and the app's own categories, kept alongside the ones the Notibase extension
/// registers.
///
/// ```swift
/// // application(_:didFinishLaunchingWithOptions:)
/// Notibase.configure(NotibaseConfiguration(serverURL: URL(string: "https://push.example.com")!,
///                                          clientKey: "nb_client_…", appGroup: "group.com.example.app"))
/// UNUserNotificationCenter.current().delegate = self
/// Task { if try await Notibase.requestAuthorization() { application.registerForRemoteNotifications() } }
///
/// // application(_:didRegisterForRemoteNotificationsWithDeviceToken:)
/// Notibase.registerDeviceToken(deviceToken)
///
/// // userNotificationCenter(_:didReceive:withCompletionHandler:)
/// if let url = Notibase.handle(response) { open(url) }
///
/// // application(_:didReceiveRemoteNotification:fetchCompletionHandler:), for background pushes
/// Notibase.handleBackgroundPush(userInfo)
/// ```
///
/// There is no method swizzling: the app forwards the token and the responses explicitly.
public enum Notibase {
    private static let client = LockedClient()

    /// Sets the app up; call it first thing at launch. Posts what earlier launches left unsent.
    public static func configure(_ configuration: NotibaseConfiguration) {
        let client = NotibaseClient(configuration: configuration)
        self.client.set(client)
        client.start()
    }

    /// The configured client (nil before `configure`).
    public static var current: NotibaseClient? { client.get() }

    /// Asks the user to allow notifications (one prompt; later calls get the first answer).
    /// Returns false when the person refuses; throws when iOS cannot ask (a restriction, a device
    /// management profile). Register for remote notifications only when it returns true.
    public static func requestAuthorization(options: UNAuthorizationOptions = [.alert, .sound, .badge]) async throws -> Bool {
        try await UNUserNotificationCenter.current().requestAuthorization(options: options)
    }

    /// Registers the APNs device token with the Notibase server (queued and retried until it
    /// arrives; a new token replaces the previous one).
    public static func registerDeviceToken(_ token: Data) {
        configured("registerDeviceToken(_:)")?.registerDeviceToken(token)
    }

    /// Associates the device with your own user ID, with the identity token your backend got for it
    /// from `POST /v1/identity-tokens` (required by apps that verify identities, which is the
    /// default for new apps). `nil` signs the user out: the server clears the device's user at once
    /// (retried until it lands), and messages addressed to that user stop reaching this device.
    public static func setExternalUserID(_ id: String?, token: String? = nil) {
        configured("setExternalUserID(_:token:)")?.setExternalUserID(id, token: token)
    }

    /// Sets the device's tags (for `tags` audiences).
    public static func setTags(_ tags: Set<String>) {
        configured("setTags(_:)")?.setTags(tags)
    }

    /// Reports what the user did with a notification (opened it, tapped a button with its typed
    /// text, dismissed it) and returns where to go: the tapped button's deep link, else the
    /// notification's, else nil. Works on a cold start, as long as `configure` ran first (without
    /// it, nothing is reported, but the destination is still returned).
    @discardableResult
    public static func handle(_ response: UNNotificationResponse) -> URL? {
        guard let client = configured("handle(_:)") else {
            let payload = NotificationPayload(userInfo: response.notification.request.content.userInfo)
            let typed = (response as? UNTextInputNotificationResponse)?.userText
            return ResponseInterpreter.interpret(payload: payload, actionIdentifier: response.actionIdentifier, typedText: typed, at: Date()).1
        }
        return client.handle(response)
    }

    /// Reports a silent background push (a message sent with `background: true`) as `received`,
    /// and returns whether it was one; call it from
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` with its `userInfo`,
    /// then do the app's own work with the custom data (top-level keys of `userInfo`) and call
    /// the completion handler. To send the receipt within this wake, `await
    /// Notibase.current?.flushNow()` before calling it. iOS throttles background pushes and does
    /// not deliver them to an app the user force-quit, so treat one as a hint to sync, not a
    /// guarantee. Returns false (nothing reported) for any other payload, or before `configure`.
    @discardableResult
    public static func handleBackgroundPush(_ userInfo: [AnyHashable: Any]) -> Bool {
        configured("handleBackgroundPush(_:)")?.handleBackgroundPush(userInfo) ?? false
    }

    /// The app's own categories, registered without removing those the Notibase extension
    /// registered (and without being removed by it). Use this instead of calling
    /// `setNotificationCategories` directly, which replaces the whole set.
    /// Throws ``NotConfiguredError`` when `configure` was not called.
    public static func setAppCategories(_ categories: Set<UNNotificationCategory>) async throws {
        guard let client = configured("setAppCategories(_:)") else { throw NotConfiguredError() }
        try await client.setAppCategories(categories)
    }

    /// The client, or nil (logged, and an assertion failure in debug builds) before `configure`:
    /// a release build never crashes for it.
    private static func configured(_ call: String) -> NotibaseClient? {
        if let client = client.get() { return client }
        SDKLog.misconfigured(
            "Notibase.\(call) was called before Notibase.configure(_:), and did nothing. "
                + "Call configure first thing in application(_:didFinishLaunchingWithOptions:)")
        return nil
    }
}

/// `Notibase.setAppCategories` was called before `Notibase.configure(_:)`: nothing was written.
public struct NotConfiguredError: Error, CustomStringConvertible {
    /// The error.
    public init() {}

    public var description: String {
        "Notibase.configure(_:) was not called before Notibase.setAppCategories(_:); nothing was written. "
            + "Call configure first thing in application(_:didFinishLaunchingWithOptions:)."
    }
}

/// The shared client behind `Notibase`, guarded by a lock.
private final class LockedClient: @unchecked Sendable {
    // @unchecked Sendable: `client` is only read and written under `lock`.
    private let lock = NSLock()
    private var client: NotibaseClient?

    func set(_ client: NotibaseClient) {
        lock.lock()
        self.client = client
        lock.unlock()
    }

    func get() -> NotibaseClient? {
        lock.lock()
        defer { lock.unlock() }
        return client
    }
}
