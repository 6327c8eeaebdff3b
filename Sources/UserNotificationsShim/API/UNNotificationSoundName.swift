/// The name of a sound file to play for a notification (Apple's `UNNotificationSoundName`).
public struct UNNotificationSoundName: Hashable, RawRepresentable, Sendable {
    /// The file name of the sound.
    public let rawValue: String

    /// Creates a sound name from a file name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a sound name from a file name.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}
