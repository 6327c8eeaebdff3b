/// A complete APNs request for one device, ready to send as is: the path, the headers and the exact
/// body bytes (which is what the 4096-byte limit applies to).
public struct APNsRequest: Sendable, Equatable {
    /// The device token, in hexadecimal, as the device reported it.
    public var deviceToken: String
    /// The `apns-*` headers. `authorization` is not among them: the sender adds it.
    public var headers: [HTTPHeader]
    /// The JSON body, exactly as it goes on the wire.
    public var body: [UInt8]

    /// A request from its parts.
    public init(deviceToken: String, headers: [HTTPHeader], body: [UInt8]) {
        self.deviceToken = deviceToken
        self.headers = headers
        self.body = body
    }

    /// The request path, `/3/device/<token>`.
    public var path: String { "/3/device/" + deviceToken }

    /// The value of a header, if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
