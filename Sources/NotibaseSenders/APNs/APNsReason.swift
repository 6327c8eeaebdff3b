/// The `reason` APNs gives for a refused push. Open: an unknown reason round-trips unchanged.
///
/// What each one means and what Notibase does is in one table, `APNsAnswerTable`.
public struct APNsReason: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    // 400 Bad request
    public static let badCollapseId = APNsReason("BadCollapseId")
    public static let badDeviceToken = APNsReason("BadDeviceToken")
    public static let badExpirationDate = APNsReason("BadExpirationDate")
    public static let badMessageId = APNsReason("BadMessageId")
    public static let badPriority = APNsReason("BadPriority")
    public static let badTopic = APNsReason("BadTopic")
    public static let deviceTokenNotForTopic = APNsReason("DeviceTokenNotForTopic")
    public static let duplicateHeaders = APNsReason("DuplicateHeaders")
    public static let idleTimeout = APNsReason("IdleTimeout")
    public static let invalidPushType = APNsReason("InvalidPushType")
    public static let missingDeviceToken = APNsReason("MissingDeviceToken")
    public static let missingTopic = APNsReason("MissingTopic")
    public static let payloadEmpty = APNsReason("PayloadEmpty")
    public static let topicDisallowed = APNsReason("TopicDisallowed")
    // 403 Certificate or provider token problems
    public static let badCertificate = APNsReason("BadCertificate")
    public static let badCertificateEnvironment = APNsReason("BadCertificateEnvironment")
    public static let expiredProviderToken = APNsReason("ExpiredProviderToken")
    public static let forbidden = APNsReason("Forbidden")
    public static let invalidProviderToken = APNsReason("InvalidProviderToken")
    public static let missingProviderToken = APNsReason("MissingProviderToken")
    public static let unrelatedKeyIdInToken = APNsReason("UnrelatedKeyIdInToken")
    public static let badEnvironmentKeyInToken = APNsReason("BadEnvironmentKeyInToken")
    // 404, 405
    public static let badPath = APNsReason("BadPath")
    public static let methodNotAllowed = APNsReason("MethodNotAllowed")
    // 410 The device token is no longer active
    public static let expiredToken = APNsReason("ExpiredToken")
    public static let unregistered = APNsReason("Unregistered")
    // 413, 429, 500, 503
    public static let payloadTooLarge = APNsReason("PayloadTooLarge")
    public static let tooManyProviderTokenUpdates = APNsReason("TooManyProviderTokenUpdates")
    public static let tooManyRequests = APNsReason("TooManyRequests")
    public static let internalServerError = APNsReason("InternalServerError")
    public static let serviceUnavailable = APNsReason("ServiceUnavailable")
    public static let shutdown = APNsReason("Shutdown")
}
