#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What differs from one device to the next when a message is rendered: the token, the ids and
/// signature the device reports receipts with, and the time (for TTLs).
public struct DeliveryContext: Sendable, Hashable {
    /// The device token (APNs: hexadecimal; FCM: the registration token).
    public var deviceToken: String
    /// The message's identifier, written as `nb_message` for receipts.
    public var messageID: String?
    /// The delivery's identifier, written as `nb_delivery` for receipts. When it is a UUID, it is
    /// also sent as `apns-id`, so APNs' answers carry it.
    public var deliveryID: String?
    /// The receipt signature for this delivery, written as `nb_sig`.
    public var receiptSignature: String?
    /// Now, for turning a TTL into an expiry time.
    public var now: Date

    /// A context from its parts.
    public init(deviceToken: String, messageID: String? = nil, deliveryID: String? = nil, receiptSignature: String? = nil, now: Date = Date()) {
        self.deviceToken = deviceToken
        self.messageID = messageID
        self.deliveryID = deliveryID
        self.receiptSignature = receiptSignature
        self.now = now
    }
}
