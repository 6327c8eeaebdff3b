#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A notification, defined once for every platform.
///
/// The server renders it into an APNs request for iOS (``APNsRenderer``) and an FCM data message for
/// Android (``FCMRenderer``); `docs/message-content.md` maps every field to both payloads and to
/// what each platform shows. Decoding rejects unknown fields, so a typo is an error that names it.
/// ``validate(for:)`` reports every problem at once.
public struct Message: Sendable, Hashable {
    /// The first line, in bold. iOS: `aps.alert.title`.
    public var title: String?
    /// A second line under the title (iOS only: `aps.alert.subtitle`; Android receives it as data).
    public var subtitle: String?
    /// The main text. When the payload would exceed the provider's limit, it is shortened at a
    /// character boundary with an ellipsis.
    public var body: String?
    /// Action buttons, in display order. iOS draws at most 10 (2 in a banner), Android 3.
    public var buttons: [Button]
    /// An `https` URL of an image (JPEG, PNG or GIF, at most 10 MB) attached on the device.
    public var imageURL: String?
    /// A deep link opened when the notification itself is tapped.
    public var url: String?
    /// `default`, or the name of a sound file in the app bundle.
    public var sound: String?
    /// The number on the app icon; 0 removes it, absent leaves it unchanged.
    public var badge: Int?
    /// Groups notifications into one stack (iOS `thread-id`, Android group).
    public var threadID: String?
    /// How urgently iOS presents it (iOS 15+).
    public var interruptionLevel: InterruptionLevel?
    /// From 0 to 1: how iOS ranks it in the notification summary.
    public var relevanceScore: Double?
    /// Notifications with the same collapse ID replace each other (at most 64 bytes).
    public var collapseID: String?
    /// How long, in seconds, the provider keeps trying to deliver it while the device is offline.
    /// 0 means now or never. Mutually exclusive with ``expiresAt``.
    public var ttl: Int?
    /// When the provider stops trying to deliver it. Mutually exclusive with ``ttl``.
    public var expiresAt: Date?
    /// Delivery priority: `high` (immediately, wakes the device) or `normal` (power-friendly).
    public var priority: Priority?
    /// Custom data handed to the app unchanged: top-level keys of the APNs payload, string values
    /// of the FCM data map. May not use `aps`, `nb_`-prefixed keys, or FCM's reserved keys.
    public var data: [String: JSONValue]
    /// A category the app registered itself (compiled in). Used on iOS only when there are no
    /// ``buttons``; with buttons, Notibase derives and registers its own.
    public var category: String?
    /// Which window of a multi-window iPad app to bring forward (`target-content-id`).
    public var targetContentID: String?
    /// A silent background push: nothing is drawn, the app is woken to handle ``data``. APNs
    /// `apns-push-type: background`, priority 5 and `aps.content-available: 1`; FCM a data message
    /// at normal priority marked `nb_background`. Validation refuses every drawn field with it.
    /// Apple throttles background pushes and drops them for an app the user force-quit.
    public var background: Bool

    /// A message; every field is optional except that validation asks for a title or a body
    /// (unless it is ``background``).
    public init(
        title: String? = nil,
        subtitle: String? = nil,
        body: String? = nil,
        buttons: [Button] = [],
        imageURL: String? = nil,
        url: String? = nil,
        sound: String? = nil,
        badge: Int? = nil,
        threadID: String? = nil,
        interruptionLevel: InterruptionLevel? = nil,
        relevanceScore: Double? = nil,
        collapseID: String? = nil,
        ttl: Int? = nil,
        expiresAt: Date? = nil,
        priority: Priority? = nil,
        data: [String: JSONValue] = [:],
        category: String? = nil,
        targetContentID: String? = nil,
        background: Bool = false
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.buttons = buttons
        self.imageURL = imageURL
        self.url = url
        self.sound = sound
        self.badge = badge
        self.threadID = threadID
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.collapseID = collapseID
        self.ttl = ttl
        self.expiresAt = expiresAt
        self.priority = priority
        self.data = data
        self.category = category
        self.targetContentID = targetContentID
        self.background = background
    }
}

/// How urgently iOS presents a notification. APNs defines the values; an unknown one is kept as is.
public struct InterruptionLevel: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Added to the list silently; no sound, no screen wake.
    public static let passive = InterruptionLevel(rawValue: "passive")
    /// The default: sound and screen wake.
    public static let active = InterruptionLevel(rawValue: "active")
    /// Breaks through Focus; needs the Time Sensitive capability.
    public static let timeSensitive = InterruptionLevel(rawValue: "time-sensitive")
    /// Breaks through Focus and mute; needs an entitlement from Apple.
    public static let critical = InterruptionLevel(rawValue: "critical")

    /// The values APNs documents.
    public static let known: [InterruptionLevel] = [.passive, .active, .timeSensitive, .critical]

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Delivery priority, mapped to `apns-priority` (10 or 5) and FCM's `android.priority`.
public enum Priority: String, Sendable, Hashable, Codable, CaseIterable {
    /// Deliver immediately (APNs 10, FCM HIGH).
    case high
    /// Deliver when power-friendly (APNs 5, FCM NORMAL).
    case normal
}
