/// The body of `POST /v1/devices/sign-out`: the device whose external user ID the server clears at
/// once, named as the SDK knows it (its platform and push token). One type on both sides, like
/// ``DeviceRegistrationRequest``.
public struct DeviceSignOutRequest: Codable, Sendable, Hashable {
    /// The device's platform.
    public var platform: Platform
    /// The push token the device is registered under.
    public var token: String

    /// The JSON field names.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case platform, token
    }

    /// A sign-out of the device registered under `token` on `platform`.
    public init(platform: Platform, token: String) {
        self.platform = platform
        self.token = token
    }
}
