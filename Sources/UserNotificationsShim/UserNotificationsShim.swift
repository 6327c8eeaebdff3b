/// # UserNotificationsShim
///
/// A Linux stand-in for Apple's UserNotifications framework, in two halves:
///
/// - `API/`: Apple's declarations, with Apple's names, labels, types, optionality, `throws` and
///   default arguments, so a Notification Service Extension written against
///   `#if canImport(UserNotifications) import UserNotifications #else import UserNotificationsShim
///   #endif` compiles unchanged on both platforms.
/// - `Simulation/`: a simulated device (`SimulatedDevice`) that behaves like iOS around those
///   declarations: the category registry that replaces instead of merging, answers that arrive later
///   on another thread, the 30-second budget of a service extension, attachment validation, what is
///   drawn (`DrawnNotification`) and what a tap sends to the app's delegate.
///
/// ## Sendable: what was checked, and how
///
/// The shim is never more permissive than Apple, so code that compiles here compiles on iOS.
/// - Checked on Apple's documentation pages (the relationship "Conforms To" lists) and in the SDK's
///   headers (no `NS_SWIFT_SENDABLE`) through the `search` tool, and against generated bindings of
///   the current SDK (objc2-user-notifications 0.3, no `Send`/`Sync` on any UN class):
///   the option sets (`UNAuthorizationOptions`, `UNNotificationCategoryOptions`,
///   `UNNotificationActionOptions`, `UNNotificationPresentationOptions`),
///   `UNNotificationInterruptionLevel`, `UNNotificationSoundName`, `UNError` and `UNError.Code` are
///   `Sendable`; no class is (`UNUserNotificationCenter`, `UNNotificationCategory`,
///   `UNNotificationAction`, `UNNotificationContent`, `UNMutableNotificationContent`,
///   `UNNotificationAttachment`, `UNNotificationRequest`, `UNNotification`, `UNNotificationResponse`,
///   `UNNotificationServiceExtension`, …). Completion handlers of the center and of the delegate
///   are `@Sendable`; the service extension's content handler is not.
/// - So no class here conforms to `Sendable`, not even `@unchecked`. Internally every one of them is
///   safe from any thread (immutable, or guarded by a lock it owns, as Apple documents for the
///   center); the simulation moves them between threads through an internal box.
/// - The target is built in Swift 5 language mode with complete concurrency checking. Client
///   modules then treat it as they treat Apple's Objective-C framework: a plain import rejects
///   sending these classes across threads, as on iOS, and `@preconcurrency import` silences exactly
///   that, as on iOS. (Measured with Swift 6.3: had the shim been built in Swift 6 mode,
///   `@preconcurrency import` would only downgrade the errors to warnings, which
///   `-warnings-as-errors` rejects, so portable code could not be written the iOS way.)
///
/// The details, and what the simulation does not model, are in `docs/usernotifications-shim.md`.
enum UserNotificationsShimModule {}
