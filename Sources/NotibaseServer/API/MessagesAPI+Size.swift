import NotibaseCore

/// How large a message may be when stored. APNs and FCM payloads stop at 4 KB (the renderers
/// shorten bodies to fit), so a message larger than that as stored carries nothing a phone could
/// show: it only makes the database, every read of the message and every fan-out batch slower for
/// every tenant.
extension MessagesAPI {
    /// The most bytes the default message, or one variant, may take as stored (its JSON, keys
    /// sorted: ``StoredJSON``).
    static let maximumMessageBytes = 4_096
    /// The most bytes the whole content (the message and every variant) may take as stored.
    static let maximumContentBytes = 65_536

    /// The content's stored form (``StoredJSON``), after checking it against the limits: throws
    /// 413 `message_too_large`, naming `message`, `variants.<locale>` or (for the whole)
    /// `variants`, when it is larger; throws ``EncodingError`` when it has no JSON form.
    @discardableResult
    static func checkSize(_ content: MessageContent) throws -> String {
        let stored = try StoredJSON.encode(content)
        let bytes = stored.utf8.count
        // Each part is written inside the whole: when the whole fits a part's limit, every part does.
        if bytes > maximumMessageBytes {
            var parts = [("message", content.message)]
            parts += (content.variants ?? [:]).sorted { $0.key < $1.key }.map { ("variants.\($0.key)", $0.value) }
            for (field, message) in parts {
                let bytes = try StoredJSON.encode(message).utf8.count
                if bytes > maximumMessageBytes {
                    throw tooLarge(field, "\(field) is \(bytes) bytes as stored; the limit is \(maximumMessageBytes) bytes (what APNs and FCM deliver at most)")
                }
            }
        }
        if bytes > maximumContentBytes {
            throw tooLarge("variants", "the message and its variants are \(bytes) bytes as stored; the limit is \(maximumContentBytes) bytes together: send fewer variants")
        }
        return stored
    }

    private static func tooLarge(_ field: String, _ message: String) -> APIError {
        APIError(status: 413, code: "message_too_large", message: message, field: field)
    }
}
