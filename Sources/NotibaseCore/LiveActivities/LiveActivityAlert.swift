/// The alert a Live Activity push may carry: on iOS it lights the screen and shows the activity
/// expanded (the text is what Apple Watch and older devices show); on Android it is the text drawn
/// when the push has no ``LiveActivityDisplay``.
public struct LiveActivityAlert: Sendable, Hashable {
    /// `aps.alert.title`.
    public var title: String?
    /// `aps.alert.body`.
    public var body: String?
    /// `aps.alert.sound`: `default`, or the name of a sound file in the app bundle.
    public var sound: String?

    /// An alert; validation asks for a title or a body.
    public init(title: String? = nil, body: String? = nil, sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}

extension LiveActivityAlert: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, body, sound
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decodeIfPresent(String.self, forKey: .title),
            body: try c.decodeIfPresent(String.self, forKey: .body),
            sound: try c.decodeIfPresent(String.self, forKey: .sound))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(body, forKey: .body)
        try c.encodeIfPresent(sound, forKey: .sound)
    }
}
