#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Renders a ``Message`` into FCM HTTP v1 requests: a data-only message, so that the app's own code
/// builds the notification and its actions (Android has no registry like iOS categories).
///
/// The body is `{"message": {"android": {"priority", "ttl", "collapse_key"}, "data": {...},
/// "token": "..."}}`. Every data value is a string: the text fields under `nb_title`, `nb_subtitle`,
/// `nb_body`, the buttons as JSON under `nb_buttons`, custom data values as they are when strings
/// and as JSON otherwise. The data must stay within FCM's 4096 bytes, counted the way FCM counts
/// them (``dataSize(of:)``); the body is shortened first, as for APNs.
///
/// A ``Message/background`` message carries only its custom data and `nb_background: "1"`, at
/// `android.priority: NORMAL` whatever the message's priority: the SDK draws nothing and hands
/// the data to the app.
public struct FCMRenderer: Sendable {
    /// FCM's limit for a data message.
    public static let payloadLimit = 4096

    /// The message being rendered.
    public let message: Message

    private let includesReceiptIDs: Bool
    /// The static data entries except the body, as (key, value).
    private let entries: [(key: String, value: String)]
    private let fieldSizes: [RenderError.FieldSize]

    /// Data keys FCM reserves: a message using them is rejected.
    public static func isReservedDataKey(_ key: String) -> Bool {
        ["from", "message_type", "collapse_key", "notification"].contains(key)
            || key.hasPrefix("google.") || key.hasPrefix("gcm.") || key == "google" || key == "gcm"
    }

    /// The size FCM counts for a data map: each key and value in UTF-8, plus 6 bytes an entry and
    /// 39 bytes for the message. (FCM documents only "4 KB"; this matches where it starts refusing.)
    public static func dataSize(of entries: some Sequence<(key: String, value: String)>) -> Int {
        entries.reduce(39) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 }
    }

    /// Prepares `message` for FCM; `includesReceiptIDs` adds `nb_message`, `nb_delivery` and
    /// `nb_sig`. Throws when
    /// the message is invalid for Android.
    public init(message: Message, includesReceiptIDs: Bool = true) throws(RenderError) {
        do {
            self.message = try message.validated(for: [.android])
        } catch {
            throw .invalid(error)
        }
        self.includesReceiptIDs = includesReceiptIDs
        var entries: [(key: String, value: String)] = []
        var sizes: [RenderError.FieldSize] = []
        func add(_ key: String, _ value: String?, field: String) {
            guard let value else { return }
            entries.append((key, value))
            sizes.append(.init(field: field, bytes: key.utf8.count + value.utf8.count + 6))
        }
        add(PayloadKey.title, message.title, field: "title")
        add(PayloadKey.subtitle, message.subtitle, field: "subtitle")
        if !message.buttons.isEmpty {
            var writer = JSONWriter()
            APNsRenderer.writeButtons(message.buttons, into: &writer)
            add(PayloadKey.buttons, String(decoding: writer.bytes, as: UTF8.self), field: "buttons")
        }
        add(PayloadKey.image, message.imageURL, field: "image")
        add(PayloadKey.url, message.url, field: "url")
        add(PayloadKey.sound, message.sound, field: "sound")
        add(PayloadKey.badge, message.badge.map(String.init), field: "badge")
        add(PayloadKey.thread, message.threadID, field: "threadId")
        add(PayloadKey.background, message.background ? "1" : nil, field: "background")
        for key in message.data.keys.sorted() {
            add(key, Self.stringValue(message.data[key]!), field: "data." + key)
        }
        sizes.append(.init(field: "body", bytes: message.body?.utf8.count ?? 0))
        self.entries = entries
        self.fieldSizes = sizes
    }

    /// The request for one device. Throws when the data cannot fit in FCM's limit.
    public func render(_ context: DeliveryContext) throws(RenderError) -> FCMRequest {
        var dynamic: [(key: String, value: String)] = []
        if includesReceiptIDs {
            if let deliveryID = context.deliveryID { dynamic.append((PayloadKey.delivery, deliveryID)) }
            if let messageID = context.messageID { dynamic.append((PayloadKey.message, messageID)) }
            if let signature = context.receiptSignature { dynamic.append((PayloadKey.signature, signature)) }
        }
        var all = entries + dynamic
        if let body = message.body {
            let fixed = Self.dataSize(of: all) + PayloadKey.body.utf8.count + 6
            var fitted = body
            if fixed + body.utf8.count > Self.payloadLimit {
                guard let shortened = BodyShortener.shorten(body, toFit: Self.payloadLimit - fixed, cost: { _ in 1 }) else {
                    throw .tooLarge(platform: .android, size: fixed + body.utf8.count, limit: Self.payloadLimit, fields: fieldSizes)
                }
                fitted = shortened
            }
            all.append((PayloadKey.body, fitted))
        } else if Self.dataSize(of: all) > Self.payloadLimit {
            throw .tooLarge(platform: .android, size: Self.dataSize(of: all), limit: Self.payloadLimit, fields: fieldSizes)
        }

        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.key("message")
        writer.beginObject()
        writer.key("android")
        writer.beginObject()
        writer.key("priority")
        writer.string(message.priority == .normal || message.background ? "NORMAL" : "HIGH")
        if let ttl = Self.ttl(of: message, now: context.now) {
            writer.key("ttl")
            writer.string("\(ttl)s")
        }
        if let collapseID = message.collapseID {
            writer.key("collapse_key")
            writer.string(collapseID)
        }
        writer.endObject()
        writer.key("data")
        writer.beginObject()
        for entry in all {
            writer.key(entry.key)
            writer.string(entry.value)
        }
        writer.endObject()
        writer.key("token")
        writer.string(context.deviceToken)
        writer.endObject()
        writer.endObject()
        return FCMRequest(deviceToken: context.deviceToken, body: writer.bytes)
    }

    /// The `android.ttl` in whole seconds, from the TTL or the time left until the expiry time.
    static func ttl(of message: Message, now: Date) -> Int? {
        if let ttl = message.ttl { return ttl }
        if let expiresAt = message.expiresAt {
            return max(Int(expiresAt.timeIntervalSince(now).rounded(.down)), 0)
        }
        return nil
    }

    /// A custom data value as an FCM data string: strings as they are, anything else as JSON.
    static func stringValue(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        var writer = JSONWriter(capacity: 64)
        writer.value(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
