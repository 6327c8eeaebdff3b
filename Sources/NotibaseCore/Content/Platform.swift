/// A platform Notibase delivers to. The set is Notibase's own.
public enum Platform: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// iPhone and iPad, through APNs.
    case ios
    /// Android, through FCM.
    case android

    /// The most action buttons the platform can show on one notification.
    public var maximumButtons: Int {
        switch self {
        case .ios: 10
        case .android: 3
        }
    }

    /// The payload limit, in bytes, that the provider enforces.
    public var payloadLimit: Int { 4096 }

    public var description: String {
        switch self {
        case .ios: "iOS"
        case .android: "Android"
        }
    }
}
