import NotibaseCore
package import NotibaseSenders
package import NotibaseDomain
package import NotibaseStore

/// The Live Activity registry (issue 46): what the SDKs report of a device's Live Activities
/// (`POST /v1/live-activity-reports`, checked by `LiveActivitiesAPI`) kept in the store, and read
/// back for an activity and a device. Sending to these tokens is built on it next.
package struct LiveActivityService: Sendable {
    /// A checked report's change to the registry.
    package enum Change: Sendable, Equatable {
        /// The device's push-to-start token for an attributes type, with the `ContentState`'s
        /// schema as JSON when the SDK sent it.
        case pushToStartToken(attributesType: String, token: String, contentStateSchema: String?)
        /// An activity's update token on the device.
        case updateToken(activityID: String, attributesType: String, token: String)
        /// The activity ended, or was dismissed, on the device: its token is dead.
        case ended(activityID: String)
        case dismissed(activityID: String)
    }

    /// What a report did: the device it is about and, for an activity, the activity's state there
    /// afterwards (an update token for an ended activity changes nothing: it stays ended).
    package struct Recorded: Sendable, Equatable {
        package var deviceID: String
        package var state: LiveActivityState?
        package var changed: Bool
    }

    let store: any LiveActivitiesStore
    let clock: WallClock

    package init(store: any LiveActivitiesStore, clock: WallClock) {
        self.store = store
        self.clock = clock
    }

    /// No active device of the app has the report's push token.
    package static let unknownDevice = Refusal(
        kind: .notFound, code: "unknown_device",
        message: "no active device of this app is registered under this deviceToken; register the device (POST /v1/devices) before reporting its Live Activities",
        field: "deviceToken")

    /// The app requires identity verification and the device's registration was not verified.
    package static let unverifiedDevice = Refusal(
        kind: .forbidden, code: "identity_required",
        message: "this app requires identity verification: register the device with its externalUserId and externalUserIdToken (or with the server key) before reporting its Live Activities",
        field: "deviceToken")

    /// Applies a report about the app's device registered under `deviceToken`. With the client key
    /// of an app that requires identity verification, only a device whose registration stored a
    /// user (which that key does only with the user's identity token) may report; any other report
    /// changes nothing and is refused.
    package func apply(_ change: Change, deviceToken: String, appID: String, caller: Caller) async throws -> Recorded {
        guard let device = try await store.activeDevice(appID: appID, pushToken: deviceToken) else { throw Self.unknownDevice }
        if caller.kind == .client && caller.requiresIdentityVerification && device.externalUserID == nil { throw Self.unverifiedDevice }
        if device.platform != .ios, change.isToken {
            // The body is valid; the device it names cannot take it: a conflict with its platform.
            throw Refusal(
                kind: .conflict, code: "not_for_platform",
                message: "\(device.platform.rawValue) devices report only ended and dismissed: ActivityKit's tokens are an iPhone's", field: "kind")
        }
        let now = clock.milliseconds()
        let state: LiveActivityState?
        switch change {
        case .pushToStartToken(let type, let token, let schema):
            guard try await store.savePushToStartToken(appID: appID, deviceSeq: device.seq, attributesType: type, token: token, contentStateSchema: schema, now: now)
            else { throw Self.unknownDevice }
            return Recorded(deviceID: device.id, state: nil, changed: true)
        case .updateToken(let activity, let type, let token):
            state = try await store.saveLiveActivityToken(appID: appID, activityID: activity, deviceSeq: device.seq, attributesType: type, token: token, now: now)
        case .ended(let activity):
            state = try await store.endLiveActivity(appID: appID, activityID: activity, deviceSeq: device.seq, state: .ended, now: now)
        case .dismissed(let activity):
            state = try await store.endLiveActivity(appID: appID, activityID: activity, deviceSeq: device.seq, state: .dismissed, now: now)
        }
        guard let state else { throw Self.unknownDevice }
        let ignored = if case .updateToken = change { state != .active } else { false }
        return Recorded(deviceID: device.id, state: state, changed: !ignored)
    }

    /// A page of the devices that reported the activity, and how many there are when `counting`.
    package func devices(appID: String, activityID: String, page: SeqPage, counting: Bool) async throws -> (items: [LiveActivityDeviceRecord], total: Int?) {
        let items = try await store.liveActivityDevices(appID: appID, activityID: activityID, page: page)
        return (items, counting ? try await store.liveActivityDeviceCount(appID: appID, activityID: activityID) : nil)
    }

    /// The attributes types the device has a push-to-start token for.
    package func pushToStartTypes(appID: String, deviceSeq: Int) async throws -> [String] {
        try await store.pushToStartTokens(appID: appID, deviceSeq: deviceSeq).map(\.attributesType)
    }
}

extension LiveActivityService.Change {
    /// Whether it carries an ActivityKit token (which only an iPhone has).
    var isToken: Bool {
        switch self {
        case .pushToStartToken, .updateToken: true
        case .ended, .dismissed: false
        }
    }
}
