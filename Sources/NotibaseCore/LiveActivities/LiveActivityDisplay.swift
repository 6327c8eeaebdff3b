/// What Android draws for a Live Update (an ongoing notification updated in place): iOS draws the
/// activity with the app's own SwiftUI from the content state, and never sees these fields.
public struct LiveActivityDisplay: Sendable, Hashable {
    /// The notification's title (`nb_live_title`); without it, the alert's title.
    public var title: String?
    /// The notification's text (`nb_live_body`); without it, the alert's body.
    public var body: String?
    /// How far along, from 0 to 1 (`nb_live_progress`): a progress bar (`ProgressStyle` on
    /// Android 16).
    public var progress: Double?

    /// A display; every field is optional.
    public init(title: String? = nil, body: String? = nil, progress: Double? = nil) {
        self.title = title
        self.body = body
        self.progress = progress
    }
}

extension LiveActivityDisplay: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, body, progress
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decodeIfPresent(String.self, forKey: .title),
            body: try c.decodeIfPresent(String.self, forKey: .body),
            progress: try c.decodeIfPresent(Double.self, forKey: .progress))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(body, forKey: .body)
        try c.encodeIfPresent(progress, forKey: .progress)
    }
}
