import Notibase
import UIKit
import UserNotifications

/// The shop's app delegate: configures Notibase at launch, asks for permission, forwards the device
/// token and every notification response, and routes deep links.
///
/// UIKit's delegate protocols are main-actor isolated, and so is this class (it is a UIResponder).
/// `UNUserNotificationCenterDelegate` is not: its conformance is `@preconcurrency` (below), which
/// states what Apple documents, that the system calls these methods on the main thread, and
/// checks it at run time.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        Notibase.configure(NotibaseConfiguration(
            serverURL: URL(string: "https://push.example.com")!,  // https: App Transport Security applies
            clientKey: "nb_client_REPLACE_ME",                    // the client key, never the server key
            appGroup: "group.com.example.shop"))                  // the App Group shared with the extension
        UNUserNotificationCenter.current().delegate = self        // before launch finishes, as Apple asks
        if #available(iOS 16.1, *) {
            // Reports the delivery Live Activity's tokens, also when a push-to-start launched the app.
            Notibase.liveActivities.observe(DeliveryAttributes.self)
        }
        window = UIWindow(frame: UIScreen.main.bounds)
        window?.rootViewController = ShopViewController()
        window?.makeKeyAndVisible()
        // This Task runs on the main actor, like the method that starts it.
        Task {
            do {
                if try await Notibase.requestAuthorization() {  // one prompt; later calls get the answer
                    application.registerForRemoteNotifications()
                }
            } catch {
                print("Notifications are not available: \(error)")
            }
        }
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        Notibase.registerDeviceToken(deviceToken)
    }

    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
        // Usually a missing Push Notifications capability (aps-environment), or the Simulator.
        print("APNs registration failed: \(error)")
    }
}

extension AppDelegate: @preconcurrency UNUserNotificationCenterDelegate {
    // Without this method, a notification that arrives while the app is open shows nothing.
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification,
                                withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
        completionHandler([.banner, .list, .sound])
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping () -> Void) {
        if let url = Notibase.handle(response) {
            // The tapped button's deep link, else the notification's: route to it.
            UIApplication.shared.open(url)
        }
        completionHandler()
    }
}
