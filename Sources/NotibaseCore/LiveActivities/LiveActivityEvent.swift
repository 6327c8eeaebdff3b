/// What a Live Activity push does to the activity: `aps.event` on iOS, `nb_live_event` on
/// Android. Apple defines the values; an unknown one is kept as is (and refused by validation).
public struct LiveActivityEvent: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Starts a new activity (push-to-start, iOS 17.2+): needs the attributes type and attributes.
    public static let start = LiveActivityEvent(rawValue: "start")
    /// Replaces the content state of a running activity.
    public static let update = LiveActivityEvent(rawValue: "update")
    /// Ends the activity with a final content state; it stays visible until its dismissal date.
    public static let end = LiveActivityEvent(rawValue: "end")

    /// The values Apple documents.
    public static let known: [LiveActivityEvent] = [.start, .update, .end]

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
