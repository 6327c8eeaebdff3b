/// How an activity is updated by push: `.token`, an update token per activity.
public struct PushType: Equatable {
    private let name: String

    /// Updates by push to the activity's own token (`pushTokenUpdates`).
    public static var token: PushType { PushType(name: "token") }
}
