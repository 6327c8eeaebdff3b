package import NotibaseDomain
/// The delivery log: each delivery with its history, by message or by device (``MessageService``).
package protocol DeliveryLogStore: Sendable {
    /// A page of a message's deliveries (in `state` when given), with their histories.
    func deliveries(messageSeq: Int, state: DeliveryState?, page: SeqPage) async throws -> [DeliveryRecord]
    /// A page of the deliveries to the app's device `deviceID` (in `state` when given), with their
    /// histories; nil when the app has no such device.
    func deliveries(appID: String, deviceID: String, state: DeliveryState?, page: SeqPage) async throws -> [DeliveryRecord]?
    /// How many deliveries the app's device `deviceID` has (in `state` when given); nil when the
    /// app has no such device.
    func deliveryCount(appID: String, deviceID: String, state: DeliveryState?) async throws -> Int?
    func delivery(appID: String, id: String) async throws -> DeliveryRecord?
}

/// The lists as they were first read: oldest first after a `seq`.
extension DeliveryLogStore {
    package func deliveries(messageSeq: Int, state: DeliveryState?, afterSeq: Int, limit: Int) async throws -> [DeliveryRecord] {
        try await deliveries(messageSeq: messageSeq, state: state, page: .after(afterSeq, limit: limit))
    }

    package func deliveries(appID: String, deviceID: String, state: DeliveryState?, afterSeq: Int, limit: Int) async throws -> [DeliveryRecord]? {
        try await deliveries(appID: appID, deviceID: deviceID, state: state, page: .after(afterSeq, limit: limit))
    }
}
