package import NotibaseSenders
package import NotibaseCore

/// Where a device's Live Activity is: running (its update token, when known, can be sent to),
/// ended (by a push or the app), or dismissed (gone from the screen). It only moves forward: an
/// ended or dismissed activity's token is dead, and the device is never sent to again for it.
package enum LiveActivityState: String, Sendable, CaseIterable {
    case active
    case ended
    case dismissed
}

/// A device's push-to-start token for one `ActivityAttributes` type (one per device and type; a
/// rotated token replaces it), with the APNs environment of the device and the schema of the
/// type's `ContentState` when the SDK sent it (JSON of ``ContentStateSchema``).
package struct PushToStartTokenRecord: Sendable, Equatable {
    package var attributesType: String
    package var token: String
    package var apnsEnvironment: APNsEnvironment?
    package var contentStateSchema: String?
    package var updatedAt: Int

    package init(attributesType: String, token: String, apnsEnvironment: APNsEnvironment?, contentStateSchema: String?, updatedAt: Int) {
        self.attributesType = attributesType
        self.token = token
        self.apnsEnvironment = apnsEnvironment
        self.contentStateSchema = contentStateSchema
        self.updatedAt = updatedAt
    }
}

/// One device running (or having run) a Live Activity: its update token for it while the activity
/// is active and the token known (one per activity and device; a rotated token replaces it).
package struct LiveActivityDeviceRecord: Sendable, Equatable {
    /// The row's number, the list's order and its cursor.
    package var seq: Int
    package var deviceID: String
    package var platform: Platform
    package var attributesType: String?
    package var state: LiveActivityState
    package var updateToken: String?
    package var updatedAt: Int

    package init(seq: Int, deviceID: String, platform: Platform, attributesType: String?, state: LiveActivityState, updateToken: String?, updatedAt: Int) {
        self.seq = seq
        self.deviceID = deviceID
        self.platform = platform
        self.attributesType = attributesType
        self.state = state
        self.updateToken = updateToken
        self.updatedAt = updatedAt
    }
}
