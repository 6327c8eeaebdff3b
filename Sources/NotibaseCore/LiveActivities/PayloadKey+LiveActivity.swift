extension PayloadKey {
    /// FCM only: `"1"` marks a Live Activity (an Android Live Update) data message.
    public static let liveActivity = "nb_live"
    /// FCM only: the activity's ID; also the message's `collapse_key`.
    public static let liveActivityID = "nb_live_activity_id"
    /// FCM only: `start`, `update` or `end`.
    public static let liveActivityEvent = "nb_live_event"
    /// FCM only: the send's time in whole seconds since 1970, as text. The SDK ignores one not
    /// newer than the last it applied, as iOS does with `aps.timestamp`.
    public static let liveActivityTimestamp = "nb_live_timestamp"
    /// FCM only: the content state, as JSON object text.
    public static let liveActivityContentState = "nb_live_content_state"
    /// FCM only: the title Android draws (the display's, else the alert's).
    public static let liveActivityTitle = "nb_live_title"
    /// FCM only: the text Android draws (the display's, else the alert's).
    public static let liveActivityBody = "nb_live_body"
    /// FCM only: the progress, `"0"` to `"1"`.
    public static let liveActivityProgress = "nb_live_progress"
    /// FCM only: the stale date, in seconds since 1970.
    public static let liveActivityStaleDate = "nb_live_stale_date"
    /// FCM only, end only: when to remove the notification, in seconds since 1970 (a past time,
    /// such as `"0"`, removes it at once); absent leaves it dismissable.
    public static let liveActivityDismissalDate = "nb_live_dismissal_date"
    /// FCM only, start only: the attributes type.
    public static let liveActivityAttributesType = "nb_live_attributes_type"
    /// FCM only, start only: the attributes (with `notibaseActivityID`), as JSON object text.
    public static let liveActivityAttributes = "nb_live_attributes"
}
