package import Foundation
package import NotibaseCore

/// What a message sends, as stored: the default message and its language variants, with the
/// request's delivery options already applied to each.
package struct MessageContent: Sendable, Codable {
    package var message: Message
    package var variants: [String: Message]?

    /// The message for a variant key (nil or unknown: the default).
    package func message(variant: String?) -> Message {
        variant.flatMap { variants?[$0] } ?? message
    }

    /// When the message stops being worth delivering, from its TTL (counted from `sendAt`) or its
    /// expiry time.
    package func expiresAt(sendAt: Date) -> Date? {
        if let ttl = message.ttl { return sendAt.addingTimeInterval(TimeInterval(ttl)) }
        return message.expiresAt
    }

    package init(message: Message, variants: [String: Message]? = nil) {
        self.message = message
        self.variants = variants
    }
}
