#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Renders a ``Message`` into APNs requests: prepared once per message, then filled in per device.
///
/// The body is `{"aps": {...}, "nb_buttons": [...], "nb_image": "...", "nb_url": "...", <custom
/// data>, "nb_delivery": "...", "nb_message": "...", "nb_sig": "..."}`; the headers are `apns-push-type`,
/// `apns-priority`, `apns-topic`, `apns-id`, `apns-expiration` and `apns-collapse-id`. When the
/// body would exceed 4096 bytes, the message body is shortened at a character boundary with an
/// ellipsis; when even that is not enough, rendering fails with the largest fields named.
///
/// `aps.category` is the `notibase-category/1` identifier of the buttons when there are any (the
/// extension registers the same identifier on the device), else the message's own category.
/// `aps.mutable-content` is 1 whenever the extension has work: buttons, an image, or receipts.
///
/// A ``Message/background`` message is a silent push instead (`APNsRenderer+Background.swift`):
/// `{"aps": {"content-available": 1}, <custom data>, "nb_delivery", "nb_message", "nb_sig"}` with
/// `apns-push-type: background` and `apns-priority: 5`, whatever the message's priority.
public struct APNsRenderer: Sendable {
    /// The APNs limit for an alert notification's body.
    public static let payloadLimit = 4096

    /// The message being rendered.
    public let message: Message
    /// The category identifier iOS will look up (derived from the buttons, or the app's own).
    public let categoryID: String?
    /// Whether the payload asks iOS to run the service extension.
    public let mutableContent: Bool

    private let topic: String?
    private let includesReceiptIDs: Bool
    /// Everything up to and including `"body":` (or the whole alert, when there is no body).
    private let head: [UInt8]
    /// The escaped, quoted body as given.
    private let fullBody: [UInt8]
    /// The escaped, quoted body, shortened if needed to fit with per-device ids of
    /// `reservedDynamicBytes`.
    private let preparedBody: [UInt8]
    /// From the end of the body to the end of the custom data (no closing brace).
    private let tail: [UInt8]
    /// The size of the per-device part `preparedBody` leaves room for.
    private let reservedDynamicBytes: Int
    private let fieldSizes: [RenderError.FieldSize]
    private let staticHeaders: [HTTPHeader]

    /// Prepares `message` for APNs. `topic` is the app's bundle identifier (`apns-topic`);
    /// `includesReceiptIDs` adds `nb_message`, `nb_delivery` and `nb_sig` so the device can post
    /// receipts.
    /// Throws when the message is invalid for iOS.
    public init(message: Message, topic: String?, includesReceiptIDs: Bool = true) throws(RenderError) {
        do {
            self.message = try message.validated(for: [.ios])
        } catch {
            throw .invalid(error)
        }
        self.topic = topic
        self.includesReceiptIDs = includesReceiptIDs
        categoryID = message.buttons.isEmpty ? message.category : CategoryIdentifier.derive(from: message.buttons)
        mutableContent = !message.background && (!message.buttons.isEmpty || message.imageURL != nil || includesReceiptIDs)
        if message.background {
            (head, fieldSizes) = Self.backgroundHead(of: message)
            (fullBody, preparedBody, tail) = ([], [], [])
            reservedDynamicBytes = includesReceiptIDs
                ? Self.dynamicLength(messageID: Self.uuidSample, deliveryID: Self.uuidSample, signature: Self.signatureSample) : 0
            staticHeaders = Self.backgroundHeaders(topic: topic, collapseID: message.collapseID)
            return
        }

        var writer = JSONWriter()
        writer.beginObject()
        writer.key("aps")
        writer.beginObject()
        writer.key("alert")
        writer.beginObject()
        if let title = message.title { writer.key("title"); writer.string(title) }
        if let subtitle = message.subtitle { writer.key("subtitle"); writer.string(subtitle) }
        if message.body != nil { writer.key("body") }
        head = writer.bytes

        var bodyWriter = JSONWriter(capacity: 64)
        if let body = message.body { bodyWriter.string(body) }
        fullBody = bodyWriter.bytes

        var tailWriter = JSONWriter()
        tailWriter.raw([])  // the tail continues after a value: what follows needs a comma
        tailWriter.endObject()  // alert
        Self.writeApsFields(of: message, categoryID: categoryID, mutableContent: mutableContent, into: &tailWriter)
        tailWriter.endObject()  // aps
        var sizes: [RenderError.FieldSize] = []
        if !message.buttons.isEmpty {
            let before = tailWriter.bytes.count
            tailWriter.key(PayloadKey.buttons)
            Self.writeButtons(message.buttons, into: &tailWriter)
            sizes.append(.init(field: "buttons", bytes: tailWriter.bytes.count - before))
        }
        for (key, value) in [(PayloadKey.image, message.imageURL), (PayloadKey.url, message.url)] {
            guard let value else { continue }
            tailWriter.key(key)
            tailWriter.string(value)
        }
        for key in message.data.keys.sorted() {
            let before = tailWriter.bytes.count
            tailWriter.key(key)
            tailWriter.value(message.data[key]!)
            sizes.append(.init(field: "data." + key, bytes: tailWriter.bytes.count - before))
        }
        tail = tailWriter.bytes
        sizes.append(.init(field: "title", bytes: JSONWriter.encodedLength(of: Substring(message.title ?? "")) - 2))
        sizes.append(.init(field: "subtitle", bytes: JSONWriter.encodedLength(of: Substring(message.subtitle ?? "")) - 2))
        sizes.append(.init(field: "body", bytes: max(fullBody.count - 2, 0)))
        sizes.append(.init(field: "image", bytes: message.imageURL?.utf8.count ?? 0))
        sizes.append(.init(field: "url", bytes: message.url?.utf8.count ?? 0))
        fieldSizes = sizes

        // Room for the per-device ids: UUIDs, the common case.
        let reserve = includesReceiptIDs
            ? Self.dynamicLength(messageID: Self.uuidSample, deliveryID: Self.uuidSample, signature: Self.signatureSample) : 0
        reservedDynamicBytes = reserve
        preparedBody = Self.fit(body: message.body, fullBody: fullBody, fixed: head.count + tail.count + 1 + reserve) ?? fullBody

        var headers = [HTTPHeader("apns-push-type", "alert")]
        headers.append(HTTPHeader("apns-priority", message.priority == .normal ? "5" : "10"))
        if let topic { headers.append(HTTPHeader("apns-topic", topic)) }
        if let collapseID = message.collapseID { headers.append(HTTPHeader("apns-collapse-id", collapseID)) }
        staticHeaders = headers
    }

    /// The request for one device. Throws when the payload cannot fit in 4096 bytes.
    public func render(_ context: DeliveryContext) throws(RenderError) -> APNsRequest {
        let messageID = includesReceiptIDs ? context.messageID : nil
        let deliveryID = includesReceiptIDs ? context.deliveryID : nil
        let signature = includesReceiptIDs ? context.receiptSignature : nil
        let dynamicLength = Self.dynamicLength(messageID: messageID, deliveryID: deliveryID, signature: signature)
        let fixed = head.count + tail.count + 1 + dynamicLength
        let fitted = dynamicLength == reservedDynamicBytes
            ? (fixed + preparedBody.count <= Self.payloadLimit ? preparedBody : nil)
            : Self.fit(body: message.body, fullBody: fullBody, fixed: fixed)
        guard let body = fitted else {
            throw .tooLarge(platform: .ios, size: fixed + fullBody.count, limit: Self.payloadLimit, fields: fieldSizes)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(fixed + body.count)
        bytes.append(contentsOf: head)
        bytes.append(contentsOf: body)
        bytes.append(contentsOf: tail)
        Self.appendIDs(messageID: messageID, deliveryID: deliveryID, signature: signature, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return APNsRequest(deviceToken: context.deviceToken, headers: headers(for: context), body: bytes)
    }

    private func headers(for context: DeliveryContext) -> [HTTPHeader] {
        var headers = staticHeaders
        if let deliveryID = context.deliveryID, Self.isUUID(deliveryID) {
            headers.append(HTTPHeader("apns-id", deliveryID))
        }
        if let expiration = Self.expiration(of: message, now: context.now) {
            headers.append(HTTPHeader("apns-expiration", String(expiration)))
        }
        return headers
    }

    /// The body bytes that fit with `fixed` other bytes, shortened if needed; nil when even a
    /// shortened body cannot fit.
    private static func fit(body: String?, fullBody: [UInt8], fixed: Int) -> [UInt8]? {
        if fixed + fullBody.count <= payloadLimit { return fullBody }
        guard let body else { return nil }
        let budget = payloadLimit - fixed - 2  // the quotes
        guard budget > 0, let shortened = BodyShortener.shorten(body, toFit: budget, cost: JSONWriter.escapedLength(of:)) else {
            return nil
        }
        var writer = JSONWriter(capacity: budget + 2)
        writer.string(shortened)
        return writer.bytes
    }

    private static func writeApsFields(of message: Message, categoryID: String?, mutableContent: Bool, into writer: inout JSONWriter) {
        if let badge = message.badge { writer.key("badge"); writer.integer(badge) }
        if let sound = message.sound { writer.key("sound"); writer.string(sound) }
        if let threadID = message.threadID { writer.key("thread-id"); writer.string(threadID) }
        if let categoryID { writer.key("category"); writer.string(categoryID) }
        if mutableContent { writer.key("mutable-content"); writer.integer(1) }
        if let level = message.interruptionLevel { writer.key("interruption-level"); writer.string(level.rawValue) }
        if let score = message.relevanceScore { writer.key("relevance-score"); writer.double(score) }
        if let target = message.targetContentID { writer.key("target-content-id"); writer.string(target) }
    }

    /// Writes buttons in the `nb_buttons` shape (`options` left out when it is `[foreground]`).
    static func writeButtons(_ buttons: [Button], into writer: inout JSONWriter) {
        writer.beginArray()
        for button in buttons {
            writer.beginObject()
            writer.key("id"); writer.string(button.id)
            writer.key("text"); writer.string(button.text)
            if button.options != .default {
                writer.key("options")
                writer.beginArray()
                for option in button.options.canonicalOrder { writer.string(option.rawValue) }
                writer.endArray()
            }
            if let icon = button.icon { writer.key("icon"); writer.string(icon) }
            if let input = button.input {
                writer.key("input")
                writer.beginObject()
                if let title = input.button { writer.key("button"); writer.string(title) }
                if let placeholder = input.placeholder { writer.key("placeholder"); writer.string(placeholder) }
                writer.endObject()
            }
            if let url = button.url { writer.key("url"); writer.string(url) }
            writer.endObject()
        }
        writer.endArray()
    }

    static let uuidSample = "00000000-0000-0000-0000-000000000000"
    /// As long as the server's signatures (an HMAC-SHA256 in unpadded base64url).
    static let signatureSample = String(repeating: "A", count: 43)

    static func dynamicLength(messageID: String?, deliveryID: String?, signature: String?) -> Int {
        var bytes: [UInt8] = []
        appendIDs(messageID: messageID, deliveryID: deliveryID, signature: signature, to: &bytes)
        return bytes.count
    }

    private static func appendIDs(messageID: String?, deliveryID: String?, signature: String?, to bytes: inout [UInt8]) {
        for (key, value) in [(PayloadKey.delivery, deliveryID), (PayloadKey.message, messageID), (PayloadKey.signature, signature)] {
            guard let value else { continue }
            bytes.append(UInt8(ascii: ","))
            JSONWriter.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONWriter.appendString(value, to: &bytes)
        }
    }

    /// The `apns-expiration` value: seconds since 1970, from the TTL or the expiry time.
    static func expiration(of message: Message, now: Date) -> Int? {
        if let ttl = message.ttl {
            return ttl == 0 ? 0 : Int(now.timeIntervalSince1970.rounded(.down)) + ttl
        }
        if let expiresAt = message.expiresAt {
            return max(Int(expiresAt.timeIntervalSince1970.rounded(.down)), 1)
        }
        return nil
    }

    /// Whether `text` is a UUID in the 8-4-4-4-12 form APNs accepts as `apns-id`.
    static func isUUID(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !((UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte))
            {
                return false
            }
        }
        return true
    }
}
