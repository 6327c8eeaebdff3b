#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What a device reports about one delivery: posted by the iOS extension (``Event/rendered``) and
/// the app (``Event/opened``, ``Event/action``, ``Event/dismissed``, and ``Event/received`` for a
/// silent background push) to `POST /v1/receipts` with the app's client key.
///
/// The server accepts a receipt once: posting the same ``id`` again changes nothing, so devices
/// retry freely.
public struct Receipt: Sendable, Hashable, Codable {
    /// Chosen by the device (a UUID); the idempotency key.
    public var id: String
    /// The delivery it is about (`nb_delivery` in the payload).
    public var deliveryID: String
    /// The message it is about (`nb_message` in the payload), as a cross-check.
    public var messageID: String?
    /// What happened.
    public var event: Event
    /// When it happened on the device.
    public var occurredAt: Date
    /// For ``Event/rendered``: what the device drew.
    public var render: RenderReport?
    /// For ``Event/action``: the identifier of the tapped button.
    public var actionID: String?
    /// For ``Event/action`` on a text-input button: what the user typed.
    public var text: String?
    /// The delivery's receipt signature (`nb_sig` in the payload), copied as received. The server
    /// refuses a receipt whose signature is not the one it made for that delivery.
    public var signature: String?

    /// What the user or the system did with the notification.
    public enum Event: String, Sendable, Hashable, Codable, CaseIterable {
        /// The extension prepared the notification for display.
        case rendered
        /// The app received a silent background push (``Message/background``): reported by the
        /// iOS SDK from the app delegate's background fetch, by the Android SDK from its
        /// messaging service. Nothing was drawn, so a background push is never `rendered`.
        case received
        /// The user tapped the notification itself.
        case opened
        /// The user tapped an action button.
        case action
        /// The user dismissed it (iOS reports this only for categories with a custom dismiss action).
        case dismissed
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case deliveryID = "deliveryId"
        case messageID = "messageId"
        case event, occurredAt, render
        case actionID = "actionId"
        case text, signature
    }

    /// A receipt from its parts.
    public init(
        id: String,
        deliveryID: String,
        messageID: String? = nil,
        event: Event,
        occurredAt: Date,
        render: RenderReport? = nil,
        actionID: String? = nil,
        text: String? = nil,
        signature: String? = nil
    ) {
        self.id = id
        self.deliveryID = deliveryID
        self.messageID = messageID
        self.event = event
        self.occurredAt = occurredAt
        self.render = render
        self.actionID = actionID
        self.text = text
        self.signature = signature
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownFields(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let occurredText = try c.decode(String.self, forKey: .occurredAt)
        guard let occurredAt = Timestamp.parse(occurredText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .occurredAt, in: c, debugDescription: "expected \(Timestamp.expected), got \"\(occurredText)\"")
        }
        self.init(
            id: try c.decode(String.self, forKey: .id),
            deliveryID: try c.decode(String.self, forKey: .deliveryID),
            messageID: try c.decodeIfPresent(String.self, forKey: .messageID),
            event: try c.decode(Event.self, forKey: .event),
            occurredAt: occurredAt,
            render: try c.decodeIfPresent(RenderReport.self, forKey: .render),
            actionID: try c.decodeIfPresent(String.self, forKey: .actionID),
            text: try c.decodeIfPresent(String.self, forKey: .text),
            signature: try c.decodeIfPresent(String.self, forKey: .signature)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(deliveryID, forKey: .deliveryID)
        try c.encodeIfPresent(messageID, forKey: .messageID)
        try c.encode(event, forKey: .event)
        try c.encode(Timestamp.format(occurredAt), forKey: .occurredAt)
        try c.encodeIfPresent(render, forKey: .render)
        try c.encodeIfPresent(actionID, forKey: .actionID)
        try c.encodeIfPresent(text, forKey: .text)
        try c.encodeIfPresent(signature, forKey: .signature)
    }
}
