/// The `errorCode` of an FCM HTTP v1 error (in the `FcmError` detail). Open: an unknown code
/// round-trips unchanged.
///
/// What each one means and what Notibase does is in one table, `FCMAnswerTable`.
struct FCMErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    var rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }
    init(_ rawValue: String) { self.rawValue = rawValue }
    var description: String { rawValue }

    static let unspecifiedError = FCMErrorCode("UNSPECIFIED_ERROR")
    static let invalidArgument = FCMErrorCode("INVALID_ARGUMENT")
    static let unregistered = FCMErrorCode("UNREGISTERED")
    static let senderIDMismatch = FCMErrorCode("SENDER_ID_MISMATCH")
    static let quotaExceeded = FCMErrorCode("QUOTA_EXCEEDED")
    static let unavailable = FCMErrorCode("UNAVAILABLE")
    static let `internal` = FCMErrorCode("INTERNAL")
    static let thirdPartyAuthError = FCMErrorCode("THIRD_PARTY_AUTH_ERROR")
}
