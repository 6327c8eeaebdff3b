#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Message: Codable {
    /// The JSON field names. `imageURL` is `image`; identifiers are spelled `…Id`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, subtitle, body, buttons
        case imageURL = "image"
        case url, sound, badge
        case threadID = "threadId"
        case interruptionLevel, relevanceScore
        case collapseID = "collapseId"
        case ttl, expiresAt, priority, data, category
        case targetContentID = "targetContentId"
        case background
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try c.decodeIfPresent(String.self, forKey: .title),
            subtitle: try c.decodeIfPresent(String.self, forKey: .subtitle),
            body: try c.decodeIfPresent(String.self, forKey: .body),
            buttons: try c.decodeIfPresent([Button].self, forKey: .buttons) ?? [],
            imageURL: try c.decodeIfPresent(String.self, forKey: .imageURL),
            url: try c.decodeIfPresent(String.self, forKey: .url),
            sound: try c.decodeIfPresent(String.self, forKey: .sound),
            badge: try c.decodeIfPresent(Int.self, forKey: .badge),
            threadID: try c.decodeIfPresent(String.self, forKey: .threadID),
            interruptionLevel: try c.decodeIfPresent(InterruptionLevel.self, forKey: .interruptionLevel),
            relevanceScore: try c.decodeIfPresent(Double.self, forKey: .relevanceScore),
            collapseID: try c.decodeIfPresent(String.self, forKey: .collapseID),
            ttl: try c.decodeIfPresent(Int.self, forKey: .ttl),
            expiresAt: try c.decodeTimestampIfPresent(forKey: .expiresAt),
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority),
            data: try c.decodeIfPresent([String: JSONValue].self, forKey: .data) ?? [:],
            category: try c.decodeIfPresent(String.self, forKey: .category),
            targetContentID: try c.decodeIfPresent(String.self, forKey: .targetContentID),
            background: try c.decodeIfPresent(Bool.self, forKey: .background) ?? false
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(subtitle, forKey: .subtitle)
        try c.encodeIfPresent(body, forKey: .body)
        if !buttons.isEmpty { try c.encode(buttons, forKey: .buttons) }
        try c.encodeIfPresent(imageURL, forKey: .imageURL)
        try c.encodeIfPresent(url, forKey: .url)
        try c.encodeIfPresent(sound, forKey: .sound)
        try c.encodeIfPresent(badge, forKey: .badge)
        try c.encodeIfPresent(threadID, forKey: .threadID)
        try c.encodeIfPresent(interruptionLevel, forKey: .interruptionLevel)
        try c.encodeIfPresent(relevanceScore, forKey: .relevanceScore)
        try c.encodeIfPresent(collapseID, forKey: .collapseID)
        try c.encodeIfPresent(ttl, forKey: .ttl)
        try c.encodeIfPresent(expiresAt.map(Timestamp.format), forKey: .expiresAt)
        try c.encodeIfPresent(priority, forKey: .priority)
        if !data.isEmpty { try c.encode(data, forKey: .data) }
        try c.encodeIfPresent(category, forKey: .category)
        try c.encodeIfPresent(targetContentID, forKey: .targetContentID)
        if background { try c.encode(true, forKey: .background) }
    }
}
