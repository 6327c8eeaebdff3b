/// The body of `POST /v1/live-activity-reports`: what the iOS SDK tells the server about a device's
/// Live Activities (a push-to-start token, an activity's update token, an activity that ended or
/// that the user dismissed), and what the server reads. One type on both sides.
///
/// Which fields go with which kind: `attributesType` and `token` with the two token kinds;
/// `activityId` with `updateToken`, `ended` and `dismissed`; `contentStateSchema` only with
/// `pushToStartToken`, and optional there. Absent fields are left out of the JSON.
public struct LiveActivityReport: Codable, Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        /// The device's push-to-start token for an attributes type (new, or rotated).
        case pushToStartToken
        /// An activity's update token (new, or rotated).
        case updateToken
        /// The activity ended (by a push, or by the app): its update token is dead.
        case ended
        /// The activity left the screen: the user dismissed it, or the system removed it after it
        /// ended. Its update token is dead.
        case dismissed
    }

    /// The push token of the registered device (hexadecimal), which the report is about.
    public var deviceToken: String
    /// What happened.
    public var kind: Kind
    /// The name of the app's `ActivityAttributes` type (APNs's `attributes-type`).
    public var attributesType: String?
    /// The activity's ID: the `notibaseActivityID` of its attributes.
    public var activityId: String?
    /// The token (hexadecimal).
    public var token: String?
    /// The keys and JSON types the app's `ContentState` decodes.
    public var contentStateSchema: ContentStateSchema?

    /// A report; see the type's description for which fields go with which kind.
    public init(
        deviceToken: String, kind: Kind, attributesType: String? = nil, activityId: String? = nil, token: String? = nil,
        contentStateSchema: ContentStateSchema? = nil
    ) {
        self.deviceToken = deviceToken
        self.kind = kind
        self.attributesType = attributesType
        self.activityId = activityId
        self.token = token
        self.contentStateSchema = contentStateSchema
    }
}
