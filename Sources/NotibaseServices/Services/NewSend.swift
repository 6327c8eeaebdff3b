package import Foundation
import NotibaseCore
package import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

/// What a send asks for, as ``MessageService/send(_:appID:requestID:)`` takes it: the content, the
/// audience, when, the idempotency key and the pacing. `MessagesAPI` builds it from the request's
/// body and headers, checked for form and size.
package struct NewSend: Sendable {
    package var content: MessageContent
    package var audience: Audience
    package var sendAt: Date?
    package var idempotencyKey: String?
    /// Pacing (``pacing(app:now:)``).
    package var localTime: WallTime?
    package var localDate: CivilDate?
    package var fallbackTimeZone: String?
    package var ratePerMinute: Int?
    /// `true` opts into the app's quiet hours.
    package var quietHours: Bool?
    /// The content as encoded once its size was checked, stored as it is.
    package var encodedContent: EncodedContent?

    /// A value the encoder cannot write is refused before anything is stored, never kept as `null`.
    package static func unstorable(_ error: EncodingError) -> Refusal {
        Refusal.invalid("message", "cannot be stored as JSON (\(error))")
    }

    package init(content: MessageContent, audience: Audience, sendAt: Date? = nil, idempotencyKey: String? = nil, localTime: WallTime? = nil, localDate: CivilDate? = nil, fallbackTimeZone: String? = nil, ratePerMinute: Int? = nil, quietHours: Bool? = nil, encodedContent: EncodedContent? = nil) {
        self.content = content
        self.audience = audience
        self.sendAt = sendAt
        self.idempotencyKey = idempotencyKey
        self.localTime = localTime
        self.localDate = localDate
        self.fallbackTimeZone = fallbackTimeZone
        self.ratePerMinute = ratePerMinute
        self.quietHours = quietHours
        self.encodedContent = encodedContent
    }
}

/// A message's content as the send encoded it: the message, its variants, and the whole as
/// stored (``StoredJSON``); the answer splices the first two in rather than encode them again.
package struct EncodedContent: Sendable {
    package var message: [UInt8]
    package var variants: [UInt8]?
    package var stored: String

    package init(message: [UInt8], variants: [UInt8]? = nil, stored: String) {
        self.message = message
        self.variants = variants
        self.stored = stored
    }
}
