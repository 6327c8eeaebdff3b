/// A complete FCM HTTP v1 `messages:send` request body for one device: `{"message": {...}}`.
///
/// The URL (`/v1/projects/<project>/messages:send`) and the bearer token come from the app's service
/// account, which only the sender knows.
public struct FCMRequest: Sendable, Equatable {
    /// The registration token of the device.
    public var deviceToken: String
    /// The JSON body, exactly as it goes on the wire.
    public var body: [UInt8]

    /// A request from its parts.
    public init(deviceToken: String, body: [UInt8]) {
        self.deviceToken = deviceToken
        self.body = body
    }
}
