/// The `reason` APNs gives for a refused push. Open: an unknown reason round-trips unchanged.
///
/// What each one means and what Notibase does is in one table, `APNsAnswerTable`.
struct APNsReason: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    var rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }
    init(_ rawValue: String) { self.rawValue = rawValue }
    var description: String { rawValue }

    // 400 Bad request
    static let badCollapseId = APNsReason("BadCollapseId")
    static let badDeviceToken = APNsReason("BadDeviceToken")
    static let badExpirationDate = APNsReason("BadExpirationDate")
    static let badMessageId = APNsReason("BadMessageId")
    static let badPriority = APNsReason("BadPriority")
    static let badTopic = APNsReason("BadTopic")
    static let deviceTokenNotForTopic = APNsReason("DeviceTokenNotForTopic")
    static let duplicateHeaders = APNsReason("DuplicateHeaders")
    static let idleTimeout = APNsReason("IdleTimeout")
    static let invalidPushType = APNsReason("InvalidPushType")
    static let missingDeviceToken = APNsReason("MissingDeviceToken")
    static let missingTopic = APNsReason("MissingTopic")
    static let payloadEmpty = APNsReason("PayloadEmpty")
    static let topicDisallowed = APNsReason("TopicDisallowed")
    // 403 Certificate or provider token problems
    static let badCertificate = APNsReason("BadCertificate")
    static let badCertificateEnvironment = APNsReason("BadCertificateEnvironment")
    static let expiredProviderToken = APNsReason("ExpiredProviderToken")
    static let forbidden = APNsReason("Forbidden")
    static let invalidProviderToken = APNsReason("InvalidProviderToken")
    static let missingProviderToken = APNsReason("MissingProviderToken")
    static let unrelatedKeyIdInToken = APNsReason("UnrelatedKeyIdInToken")
    static let badEnvironmentKeyInToken = APNsReason("BadEnvironmentKeyInToken")
    // 404, 405
    static let badPath = APNsReason("BadPath")
    static let methodNotAllowed = APNsReason("MethodNotAllowed")
    // 410 The device token is no longer active
    static let expiredToken = APNsReason("ExpiredToken")
    static let unregistered = APNsReason("Unregistered")
    // 413, 429, 500, 503
    static let payloadTooLarge = APNsReason("PayloadTooLarge")
    static let tooManyProviderTokenUpdates = APNsReason("TooManyProviderTokenUpdates")
    static let tooManyRequests = APNsReason("TooManyRequests")
    static let internalServerError = APNsReason("InternalServerError")
    static let serviceUnavailable = APNsReason("ServiceUnavailable")
    static let shutdown = APNsReason("Shutdown")
}
