/// The `errorCode` of an FCM HTTP v1 error (in the `FcmError` detail). Open: an unknown code
/// round-trips unchanged.
///
/// What each one means and what Notibase does is in one table, `FCMAnswerTable`.
public struct FCMErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let unspecifiedError = FCMErrorCode("UNSPECIFIED_ERROR")
    public static let invalidArgument = FCMErrorCode("INVALID_ARGUMENT")
    public static let unregistered = FCMErrorCode("UNREGISTERED")
    public static let senderIDMismatch = FCMErrorCode("SENDER_ID_MISMATCH")
    public static let quotaExceeded = FCMErrorCode("QUOTA_EXCEEDED")
    public static let unavailable = FCMErrorCode("UNAVAILABLE")
    public static let `internal` = FCMErrorCode("INTERNAL")
    public static let thirdPartyAuthError = FCMErrorCode("THIRD_PARTY_AUTH_ERROR")
}
