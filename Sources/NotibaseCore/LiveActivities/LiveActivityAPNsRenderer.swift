#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Renders a ``LiveActivityMessage`` into APNs requests exactly as Apple documents Live Activity
/// pushes: prepared once per send, then completed per device.
///
/// Headers: `apns-push-type: liveactivity`, `apns-priority` (10, or 5 for `normal`), `apns-topic`
/// (the bundle ID with `.push-type.liveactivity`), and `apns-id` (the delivery ID, when a UUID).
/// Body: `{"aps": {"timestamp", "event", "content-state", "stale-date", "dismissal-date",
/// "relevance-score", "alert": {"title", "body", "sound"}}}`, and for `start` also
/// `"attributes-type"`, `"attributes"` (with `notibaseActivityID`) and `"input-push-token": 1`
/// (so the new activity gets an update token). Nothing else: the app never sees the payload, so
/// there are no receipt keys. Apple accepts only token authentication for this push type.
public struct LiveActivityAPNsRenderer: Sendable {
    /// The limit Apple documents for a Live Activity push's payload.
    public static let payloadLimit = 4096
    /// `apns-push-type`.
    public static let pushType = "liveactivity"
    /// What `apns-topic` adds to the bundle ID for this push type.
    public static let topicSuffix = ".push-type.liveactivity"

    /// The event being rendered.
    public let message: LiveActivityMessage
    /// The activity it belongs to.
    public let activityID: LiveActivityID

    /// `{"aps":{"timestamp":`.
    private let head: [UInt8]
    /// Everything after the timestamp's value.
    private let tail: [UInt8]
    private let staticHeaders: [HTTPHeader]
    private let fieldSizes: [RenderError.FieldSize]

    /// Prepares `message` for APNs. `bundleID` is the app's (the topic adds
    /// ``topicSuffix``); nil leaves `apns-topic` to the sender, which adds it the same way.
    /// Throws when the message is invalid for iOS (as of `now`).
    public init(message: LiveActivityMessage, activityID: LiveActivityID, bundleID: String?, now: Date = Date()) throws(RenderError) {
        do {
            self.message = try message.validated(activityID: activityID.rawValue, for: [.ios], now: now)
        } catch {
            throw .invalid(error)
        }
        self.activityID = activityID
        (head, tail) = Self.parts(of: message, activityID: activityID.rawValue)
        fieldSizes = message.fieldSizes(activityID: activityID.rawValue)
        var headers = [HTTPHeader("apns-push-type", Self.pushType)]
        headers.append(HTTPHeader("apns-priority", message.priority == .normal ? "5" : "10"))
        if let bundleID { headers.append(HTTPHeader("apns-topic", bundleID + Self.topicSuffix)) }
        staticHeaders = headers
    }

    /// The request for one device, stamped with `timestamp` (seconds since 1970, from the server's
    /// clock and never lower than the activity's previous push: iOS drops an older one).
    public func render(_ context: DeliveryContext, timestamp: Int) throws(RenderError) -> APNsRequest {
        let body = Self.join(head, timestamp, tail)
        guard body.count <= Self.payloadLimit else {
            throw .tooLarge(platform: .ios, size: body.count, limit: Self.payloadLimit, fields: fieldSizes)
        }
        var headers = staticHeaders
        if let deliveryID = context.deliveryID, APNsRenderer.isUUID(deliveryID) {
            headers.append(HTTPHeader("apns-id", deliveryID))
        }
        return APNsRequest(deviceToken: context.deviceToken, headers: headers, body: body)
    }

    /// The body for `message` with `timestamp`, unvalidated (validation measures it).
    static func payload(of message: LiveActivityMessage, activityID: String, timestamp: Int) -> [UInt8] {
        let (head, tail) = parts(of: message, activityID: activityID)
        return join(head, timestamp, tail)
    }

    private static func join(_ head: [UInt8], _ timestamp: Int, _ tail: [UInt8]) -> [UInt8] {
        var body = head
        body.reserveCapacity(head.count + 20 + tail.count)
        body.append(contentsOf: String(timestamp).utf8)
        body.append(contentsOf: tail)
        return body
    }

    private static func parts(of message: LiveActivityMessage, activityID: String) -> (head: [UInt8], tail: [UInt8]) {
        var head = JSONWriter(capacity: 32)
        head.beginObject()
        head.key("aps")
        head.beginObject()
        head.key("timestamp")

        var tail = JSONWriter()
        tail.raw([])  // the tail continues after the timestamp: what follows needs a comma
        tail.key("event"); tail.string(message.event.rawValue)
        tail.key("content-state"); tail.value(.object(message.contentState))
        if let date = message.staleDate { tail.key("stale-date"); tail.integer(LiveActivityMessage.seconds(date)) }
        if let date = message.dismissalDate { tail.key("dismissal-date"); tail.integer(LiveActivityMessage.seconds(date)) }
        if let score = message.relevanceScore { tail.key("relevance-score"); tail.double(score) }
        if let alert = message.alert {
            tail.key("alert")
            tail.beginObject()
            if let title = alert.title { tail.key("title"); tail.string(title) }
            if let body = alert.body { tail.key("body"); tail.string(body) }
            if let sound = alert.sound { tail.key("sound"); tail.string(sound) }
            tail.endObject()
        }
        if message.event == .start {
            if let type = message.attributesType { tail.key("attributes-type"); tail.string(type) }
            tail.key("attributes"); tail.value(.object(message.sentAttributes(activityID: activityID)))
            tail.key("input-push-token"); tail.integer(1)
        }
        tail.endObject()  // aps
        tail.endObject()
        return (head.bytes, tail.bytes)
    }
}
