import Foundation
import NotibaseCore

/// What a send asks for, as ``MessageService/send(_:appID:requestID:)`` takes it: the content, the
/// audience, when, the idempotency key and the pacing. `MessagesAPI` builds it from the request's
/// body and headers, checked for form and size.
struct NewSend: Sendable {
    var content: MessageContent
    var audience: Audience
    var sendAt: Date?
    var idempotencyKey: String?
    /// Pacing (``pacing(app:now:)``).
    var localTime: WallTime?
    var localDate: CivilDate?
    var fallbackTimeZone: String?
    var ratePerMinute: Int?
    /// `true` opts into the app's quiet hours.
    var quietHours: Bool?
    /// The content as encoded once its size was checked, stored as it is.
    var encodedContent: EncodedContent?

    /// A value the encoder cannot write is refused before anything is stored, never kept as `null`.
    static func unstorable(_ error: EncodingError) -> Refusal {
        Refusal.invalid("message", "cannot be stored as JSON (\(error))")
    }
}

/// A message's content as the send encoded it: the message, its variants, and the whole as
/// stored (``StoredJSON``); the answer splices the first two in rather than encode them again.
struct EncodedContent: Sendable {
    var message: [UInt8]
    var variants: [UInt8]?
    var stored: String
}
