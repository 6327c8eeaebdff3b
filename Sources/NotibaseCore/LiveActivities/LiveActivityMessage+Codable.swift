#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension LiveActivityMessage: Codable {
    /// The JSON field names, as the server's API takes them.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, contentState, attributesType, attributes, staleDate, dismissalDate, relevanceScore, alert, priority, display
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            event: try c.decode(LiveActivityEvent.self, forKey: .event),
            contentState: try c.decode([String: JSONValue].self, forKey: .contentState),
            attributesType: try c.decodeIfPresent(String.self, forKey: .attributesType),
            attributes: try c.decodeIfPresent([String: JSONValue].self, forKey: .attributes),
            staleDate: try c.decodeTimestampIfPresent(forKey: .staleDate),
            dismissalDate: try c.decodeTimestampIfPresent(forKey: .dismissalDate),
            relevanceScore: try c.decodeIfPresent(Double.self, forKey: .relevanceScore),
            alert: try c.decodeIfPresent(LiveActivityAlert.self, forKey: .alert),
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority),
            display: try c.decodeIfPresent(LiveActivityDisplay.self, forKey: .display)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(event, forKey: .event)
        try c.encode(contentState, forKey: .contentState)
        try c.encodeIfPresent(attributesType, forKey: .attributesType)
        try c.encodeIfPresent(attributes, forKey: .attributes)
        try c.encodeIfPresent(staleDate.map(Timestamp.format), forKey: .staleDate)
        try c.encodeIfPresent(dismissalDate.map(Timestamp.format), forKey: .dismissalDate)
        try c.encodeIfPresent(relevanceScore, forKey: .relevanceScore)
        try c.encodeIfPresent(alert, forKey: .alert)
        try c.encodeIfPresent(priority, forKey: .priority)
        try c.encodeIfPresent(display, forKey: .display)
    }
}
