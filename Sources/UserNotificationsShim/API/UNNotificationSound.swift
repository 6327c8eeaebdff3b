public import Foundation

/// The sound played upon delivery of a notification (Apple's `UNNotificationSound`). Immutable.
public class UNNotificationSound: NSObject, NSCopying {
    /// What the sound is; read by the simulation to describe a drawn notification.
    let name: UNNotificationSoundName?
    let isCritical: Bool
    let criticalVolume: Float?

    init(name: UNNotificationSoundName?, isCritical: Bool, criticalVolume: Float?) {
        self.name = name
        self.isCritical = isCritical
        self.criticalVolume = criticalVolume
        super.init()
    }

    /// The default sound used for notifications.
    public class var `default`: UNNotificationSound {
        UNNotificationSound(name: nil, isCritical: false, criticalVolume: nil)
    }

    /// The default sound used for critical alerts.
    public class var defaultCritical: UNNotificationSound {
        UNNotificationSound(name: nil, isCritical: true, criticalVolume: nil)
    }

    /// Creates a sound object that represents a custom sound file.
    public convenience init(named name: UNNotificationSoundName) {
        self.init(name: name, isCritical: false, criticalVolume: nil)
    }

    /// Creates a sound object that plays the specified custom sound for critical alerts.
    public class func criticalSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
        UNNotificationSound(name: name, isCritical: true, criticalVolume: nil)
    }

    /// Creates a sound object that plays the specified custom sound at a volume for critical alerts.
    public class func criticalSoundNamed(_ name: UNNotificationSoundName, withAudioVolume volume: Float) -> UNNotificationSound {
        UNNotificationSound(name: name, isCritical: true, criticalVolume: volume)
    }

    /// Creates a sound object that plays the default critical alert sound at the volume you specify.
    public class func defaultCriticalSound(withAudioVolume volume: Float) -> UNNotificationSound {
        UNNotificationSound(name: nil, isCritical: true, criticalVolume: volume)
    }

    /// Returns the receiver: sounds are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// Sounds are equal when they play the same file the same way.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationSound else { return false }
        return name == other.name && isCritical == other.isCritical && criticalVolume == other.criticalVolume
    }

    /// A hash consistent with `isEqual(_:)`.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(name)
        hasher.combine(isCritical)
        return hasher.finalize()
    }

    /// `"default"` or the file name, as the APNs `sound` key spells it.
    var payloadName: String {
        name?.rawValue ?? "default"
    }
}
