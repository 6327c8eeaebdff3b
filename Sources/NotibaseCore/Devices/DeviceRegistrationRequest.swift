/// The body of `POST /v1/devices`: what an app's SDK sends to register (or update) its device, and
/// what the server reads. One type on both sides, so they never disagree on a field.
///
/// Absent optional fields are left out of the JSON. The server's rules for each field (a token's
/// shape per platform, how many tags, locale syntax…) are in its OpenAPI document, `/openapi.json`.
public struct DeviceRegistrationRequest: Codable, Sendable, Hashable {
    /// The device's platform.
    public var platform: Platform
    /// The push token: an APNs device token in hexadecimal, or an FCM registration token.
    public var token: String
    /// The app's own ID for its user, to address every device of a user at once.
    public var externalUserId: String?
    /// The identity token the app's backend got from Notibase for ``externalUserId``
    /// (`POST /v1/identity-tokens`): proof that the backend signed this user in on this device.
    /// When the app requires identity verification, a user ID without it is not used.
    public var externalUserIdToken: String?
    /// Labels to choose audiences by.
    public var tags: [String]?
    /// A BCP 47 locale (`fr-FR`): which of a message's variants the device gets.
    public var locale: String?
    /// An IANA time zone (`Europe/Paris`).
    public var timeZone: String?
    /// The app's version.
    public var appVersion: String?
    /// The Notibase SDK's version.
    public var sdkVersion: String?
    /// The token this one replaces (APNs and FCM rotate tokens): the device registered under it is
    /// deactivated.
    public var previousToken: String?
    /// The APNs environment the device's token belongs to: `sandbox` (a development build) or
    /// `production` (TestFlight and App Store builds); `development` is read as `sandbox`. Left
    /// out, the server uses the app's default (the environment of its APNs credentials).
    public var apnsEnvironment: String?

    /// The JSON field names.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case platform, token, externalUserId, externalUserIdToken, tags, locale, timeZone, appVersion, sdkVersion, previousToken, apnsEnvironment
    }

    /// A registration of `token` on `platform`, with the other fields as given.
    public init(
        platform: Platform, token: String, externalUserId: String? = nil, externalUserIdToken: String? = nil, tags: [String]? = nil,
        locale: String? = nil, timeZone: String? = nil, appVersion: String? = nil, sdkVersion: String? = nil, previousToken: String? = nil,
        apnsEnvironment: String? = nil
    ) {
        self.platform = platform
        self.token = token
        self.externalUserId = externalUserId
        self.externalUserIdToken = externalUserIdToken
        self.tags = tags
        self.locale = locale
        self.timeZone = timeZone
        self.appVersion = appVersion
        self.sdkVersion = sdkVersion
        self.previousToken = previousToken
        self.apnsEnvironment = apnsEnvironment
    }
}
