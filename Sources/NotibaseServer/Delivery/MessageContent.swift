import Foundation
import NotibaseCore

/// What a message sends, as stored: the default message and its language variants, with the
/// request's delivery options already applied to each.
struct MessageContent: Sendable, Codable {
    var message: Message
    var variants: [String: Message]?

    /// The message for a variant key (nil or unknown: the default).
    func message(variant: String?) -> Message {
        variant.flatMap { variants?[$0] } ?? message
    }

    /// When the message stops being worth delivering, from its TTL (counted from `sendAt`) or its
    /// expiry time.
    func expiresAt(sendAt: Date) -> Date? {
        if let ttl = message.ttl { return sendAt.addingTimeInterval(TimeInterval(ttl)) }
        return message.expiresAt
    }
}
