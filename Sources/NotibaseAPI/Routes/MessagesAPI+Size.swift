import NotibaseCore
package import NotibaseDomain
import NotibaseHTTP
import NotibaseWebhooks
package import NotibaseServices

/// How large a message may be when stored. APNs and FCM payloads stop at 4 KB (the renderers
/// shorten bodies to fit), so a message larger than that as stored carries nothing a phone could
/// show: it only makes the database, every read of the message and every fan-out batch slower for
/// every tenant.
extension MessagesAPI {
    /// The most bytes the default message, or one variant, may take as stored (its JSON, keys
    /// sorted: ``StoredJSON``).
    package static let maximumMessageBytes = 4_096
    /// The most bytes the whole content (the message and every variant) may take as stored.
    package static let maximumContentBytes = 65_536

    /// The content's stored form (``StoredJSON``), after checking it against the limits: throws
    /// 413 `message_too_large`, naming `message`, `variants.<locale>` or (for the whole)
    /// `variants`, when it is larger; throws ``EncodingError`` when it has no JSON form.
    ///
    /// The message and its variants are encoded once, and the whole is put together from them:
    /// the bytes `StoredJSON.encode(content)` writes (the encoder writes a nested value as it writes
    /// it alone), kept for the answer (``MessagesAPI/MessageBody/json()``).
    package static func checkSize(_ content: MessageContent) throws -> EncodedContent {
        let message = Array(try StoredJSON.encode(content.message).utf8)
        let variants = try content.variants.map { Array(try StoredJSON.encode($0).utf8) }
        var stored = Array(#"{"message":"#.utf8) + message
        if let variants { stored += Array(#","variants":"#.utf8) + variants }
        stored.append(UInt8(ascii: "}"))
        if message.count > maximumMessageBytes {
            throw tooLarge("message", "message is \(message.count) bytes as stored; the limit is \(maximumMessageBytes) bytes (what APNs and FCM deliver at most)")
        }
        // Each variant is written inside the whole: when the whole fits a part's limit, every part does.
        if stored.count > maximumMessageBytes {
            for (locale, variant) in (content.variants ?? [:]).sorted(by: { $0.key < $1.key }) {
                let bytes = try StoredJSON.encode(variant).utf8.count
                if bytes > maximumMessageBytes {
                    throw tooLarge("variants.\(locale)", "variants.\(locale) is \(bytes) bytes as stored; the limit is \(maximumMessageBytes) bytes (what APNs and FCM deliver at most)")
                }
            }
        }
        if stored.count > maximumContentBytes {
            throw tooLarge("variants", "the message and its variants are \(stored.count) bytes as stored; the limit is \(maximumContentBytes) bytes together: send fewer variants")
        }
        return EncodedContent(message: message, variants: variants, stored: String(decoding: stored, as: UTF8.self))
    }

    private static func tooLarge(_ field: String, _ message: String) -> Refusal {
        Refusal(kind: .tooLarge, code: "message_too_large", message: message, field: field)
    }
}
