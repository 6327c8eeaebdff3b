package import NotibaseDomain

/// The Live Activity registry (issue 46) as ``LiveActivityService`` keeps it: each device's
/// push-to-start tokens per attributes type, and each activity's update token and state per
/// device, from what the SDKs report; read back for an activity and for a device. Rows go with
/// their device (deleted, or its user forgotten) and their app.
package protocol LiveActivitiesStore: Sendable {
    /// The app's active device registered under `pushToken` (an APNs token in lowercase
    /// hexadecimal, or an FCM registration token), or nil.
    func activeDevice(appID: String, pushToken: String) async throws -> DeviceRecord?
    /// Makes `token` the device's push-to-start token for `attributesType` (replacing the one it
    /// had), with the device's APNs environment and the content state's schema (JSON) if given.
    /// False, writing nothing, when the app has no device `deviceSeq`.
    func savePushToStartToken(appID: String, deviceSeq: Int, attributesType: String, token: String, contentStateSchema: String?, now: Int) async throws -> Bool
    /// The app's device's push-to-start tokens, by attributes type.
    func pushToStartTokens(appID: String, deviceSeq: Int) async throws -> [PushToStartTokenRecord]
    /// Makes `token` the activity's update token on the device (replacing the one it had) while
    /// the activity is active there; an ended or dismissed one keeps its state and no token.
    /// Returns the activity's state on the device afterwards, or nil when the app has no device
    /// `deviceSeq`.
    func saveLiveActivityToken(appID: String, activityID: String, deviceSeq: Int, attributesType: String, token: String, now: Int) async throws -> LiveActivityState?
    /// Marks the activity `state` (ended or dismissed) on the device, its token forgotten; a
    /// dismissed one stays dismissed. Returns the state afterwards, or nil when the app has no
    /// device `deviceSeq`.
    func endLiveActivity(appID: String, activityID: String, deviceSeq: Int, state: LiveActivityState, now: Int) async throws -> LiveActivityState?
    /// A page of the devices that reported the activity, in the order they first did.
    func liveActivityDevices(appID: String, activityID: String, page: SeqPage) async throws -> [LiveActivityDeviceRecord]
    /// How many devices reported the activity.
    func liveActivityDeviceCount(appID: String, activityID: String) async throws -> Int
}
