import NotibaseExtension

// `nonisolated`: with Xcode 26's default MainActor isolation for new targets, the subclass would
// otherwise be main-actor isolated, and the system calls the extension on a background thread.
nonisolated class NotificationService: NotibaseNotificationService {}
