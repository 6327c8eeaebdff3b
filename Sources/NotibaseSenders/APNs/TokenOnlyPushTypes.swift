import NotibaseCore

/// The APNs push types Apple accepts only with token (JWT) authentication, and the refusal an app
/// whose credentials are a certificate gets for them, before anything is sent.
enum TokenOnlyPushTypes {
    /// `liveactivity`: Apple refuses certificate authentication for Live Activity pushes.
    static let pushTypes: Set<String> = [LiveActivityAPNsRenderer.pushType]

    /// Whether `request` may go only over token authentication.
    static func contains(_ request: APNsRequest) -> Bool {
        request.header("apns-push-type").map(pushTypes.contains) ?? false
    }

    /// The outcome of such a push for an app with a certificate: failed (resending cannot help),
    /// saying what to do. The app's credentials stand: its other pushes go on as before.
    static let certificateRefusal = SendOutcome(
        disposition: .failed,
        explanation: "Apple accepts only token authentication for Live Activity pushes: give the app an APNs signing key "
            + "(.p8, with its key ID and team ID) in place of its certificate. Not sent.")

    /// The topic the sender gives a request that has none: the bundle ID, with
    /// `.push-type.liveactivity` for a Live Activity push (Apple requires the suffix).
    static func topic(for request: APNsRequest, bundleID: String) -> String {
        request.header("apns-push-type") == LiveActivityAPNsRenderer.pushType ? bundleID + LiveActivityAPNsRenderer.topicSuffix : bundleID
    }
}
