/// Constants that indicate the importance and delivery timing of a notification (Apple's
/// `UNNotificationInterruptionLevel`). Raw values as in Apple's SDK.
public enum UNNotificationInterruptionLevel: UInt, Sendable {
    /// The system adds the notification to the notification list without lighting up the screen or
    /// playing a sound.
    case passive = 0
    /// The system presents the notification immediately, lights up the screen, and can play a sound.
    case active = 1
    /// The system presents the notification immediately, even during a Focus.
    case timeSensitive = 2
    /// The system presents the notification immediately, even with the ringer off (entitlement).
    case critical = 3
}
