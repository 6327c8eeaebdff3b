import Foundation
import NotibaseCore
import NotibaseDomain
import NotibaseStore
import NotibaseWebhooks

extension NewSend {
    /// What the send asks for, as a SHA-256 digest (64 hexadecimal digits): the message and its
    /// variants with their options applied, the audience, `sendAt` and the pacing, as decoded and
    /// encoded again with sorted keys, so two bodies that differ only in key order, whitespace or
    /// escapes are one request, and a different title, audience, time or option is another. The
    /// idempotency key itself is not part of it (a key in the body or in the header is the same
    /// request). Kept with the key (``NewMessage/requestDigest``).
    package func meaningDigest() throws -> String {
        let meaning = Meaning(
            content: content, audience: audience, sendAt: sendAt.map { Int(($0.timeIntervalSince1970 * 1000).rounded()) },
            localTime: localTime?.text, localDate: localDate?.text, fallbackTimeZone: fallbackTimeZone, ratePerMinute: ratePerMinute,
            quietHours: quietHours)
        let digest = try Crypto.sha256(StoredJSON.encode(meaning).utf8)
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }, as: UTF8.self)
    }

    /// The fields a digest covers.
    private struct Meaning: Encodable {
        package var content: MessageContent
        package var audience: Audience
        /// Milliseconds since 1970, as stored.
        package var sendAt: Int?
        package var localTime: String?
        package var localDate: String?
        package var fallbackTimeZone: String?
        package var ratePerMinute: Int?
        package var quietHours: Bool?
    }
}
