#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Renders a ``LiveActivityMessage`` into FCM HTTP v1 requests for Android Live Updates: a
/// data-only message that the Android SDK turns into an ongoing notification updated in place.
///
/// The body is `{"message": {"android": {"priority", "collapse_key": <activity ID>}, "data": {...},
/// "token": "..."}}`, priority `HIGH` (or `NORMAL` for `normal`). Every data value is a string:
/// `nb_live` = `"1"`, `nb_live_activity_id`, `nb_live_event`, `nb_live_timestamp`,
/// `nb_live_content_state` (JSON text), `nb_live_title` and `nb_live_body` (the display's text, else
/// the alert's), `nb_live_progress`, `nb_live_stale_date`, `nb_live_dismissal_date` (end),
/// `nb_live_attributes_type` and `nb_live_attributes` (start), then the delivery keys every
/// Notibase data message carries (`nb_delivery`, `nb_message`, `nb_sig`). Within FCM's 4096 bytes,
/// counted as ``FCMRenderer/dataSize(of:)`` does; nothing is shortened.
public struct LiveActivityFCMRenderer: Sendable {
    /// FCM's limit for a data message.
    public static let payloadLimit = FCMRenderer.payloadLimit

    /// The event being rendered.
    public let message: LiveActivityMessage
    /// The activity it belongs to.
    public let activityID: LiveActivityID

    private let includesReceiptIDs: Bool
    private let fieldSizes: [RenderError.FieldSize]

    /// Prepares `message` for FCM; `includesReceiptIDs` adds `nb_delivery`, `nb_message` and
    /// `nb_sig`. Throws when the message is invalid for Android (as of `now`).
    public init(message: LiveActivityMessage, activityID: LiveActivityID, includesReceiptIDs: Bool = true, now: Date = Date()) throws(RenderError) {
        do {
            self.message = try message.validated(activityID: activityID.rawValue, for: [.android], now: now)
        } catch {
            throw .invalid(error)
        }
        self.activityID = activityID
        self.includesReceiptIDs = includesReceiptIDs
        fieldSizes = message.fieldSizes(activityID: activityID.rawValue)
    }

    /// The request for one device, stamped with `timestamp` (seconds since 1970; see
    /// ``LiveActivityAPNsRenderer/render(_:timestamp:)``).
    public func render(_ context: DeliveryContext, timestamp: Int) throws(RenderError) -> FCMRequest {
        let data = Self.data(of: message, activityID: activityID.rawValue, timestamp: timestamp,
                             context: includesReceiptIDs ? context : nil)
        let size = FCMRenderer.dataSize(of: data)
        guard size <= Self.payloadLimit else {
            throw .tooLarge(platform: .android, size: size, limit: Self.payloadLimit, fields: fieldSizes)
        }
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.key("message")
        writer.beginObject()
        writer.key("android")
        writer.beginObject()
        writer.key("priority"); writer.string(message.priority == .normal ? "NORMAL" : "HIGH")
        writer.key("collapse_key"); writer.string(activityID.rawValue)
        writer.endObject()
        writer.key("data")
        writer.beginObject()
        for entry in data {
            writer.key(entry.key)
            writer.string(entry.value)
        }
        writer.endObject()
        writer.key("token"); writer.string(context.deviceToken)
        writer.endObject()
        writer.endObject()
        return FCMRequest(deviceToken: context.deviceToken, body: writer.bytes)
    }

    /// The data entries, in order, unvalidated (validation measures them); `context` gives the
    /// receipt keys when it is not nil.
    static func data(of message: LiveActivityMessage, activityID: String, timestamp: Int, context: DeliveryContext?) -> [(key: String, value: String)] {
        var data: [(key: String, value: String)] = [
            (PayloadKey.liveActivity, "1"),
            (PayloadKey.liveActivityID, activityID),
            (PayloadKey.liveActivityEvent, message.event.rawValue),
            (PayloadKey.liveActivityTimestamp, String(timestamp)),
            (PayloadKey.liveActivityContentState, LiveActivityMessage.jsonText(.object(message.contentState))),
        ]
        func add(_ key: String, _ value: String?) {
            if let value { data.append((key, value)) }
        }
        add(PayloadKey.liveActivityTitle, message.androidTitle)
        add(PayloadKey.liveActivityBody, message.androidBody)
        add(PayloadKey.liveActivityProgress, message.display?.progress.map { LiveActivityMessage.jsonText(.double($0)) })
        add(PayloadKey.liveActivityStaleDate, message.staleDate.map { String(LiveActivityMessage.seconds($0)) })
        add(PayloadKey.liveActivityDismissalDate, message.dismissalDate.map { String(LiveActivityMessage.seconds($0)) })
        if message.event == .start {
            add(PayloadKey.liveActivityAttributesType, message.attributesType)
            add(PayloadKey.liveActivityAttributes, LiveActivityMessage.jsonText(.object(message.sentAttributes(activityID: activityID))))
        }
        if let context {
            add(PayloadKey.delivery, context.deliveryID)
            add(PayloadKey.message, context.messageID)
            add(PayloadKey.signature, context.receiptSignature)
        }
        return data
    }
}
