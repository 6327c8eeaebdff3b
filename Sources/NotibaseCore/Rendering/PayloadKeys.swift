/// The keys Notibase adds to provider payloads: the wire contract between the server and the SDKs
/// (`docs/message-content.md`). All start with `nb_`, which custom data may not use.
public enum PayloadKey {
    /// The buttons, in the `nb_buttons` shape (an array on APNs, a JSON string on FCM).
    public static let buttons = "nb_buttons"
    /// The image URL.
    public static let image = "nb_image"
    /// The deep link of the notification itself.
    public static let url = "nb_url"
    /// The message identifier, for receipts.
    public static let message = "nb_message"
    /// The delivery identifier, for receipts.
    public static let delivery = "nb_delivery"
    /// The receipt signature: an opaque value the server made for this delivery, which every
    /// receipt about it must carry back (`Receipt.signature`). Without it the server refuses the
    /// receipt, so that holding the app's public client key is not enough to forge one.
    public static let signature = "nb_sig"
    /// FCM only: the title (Android builds the notification from data).
    public static let title = "nb_title"
    /// FCM only: the subtitle.
    public static let subtitle = "nb_subtitle"
    /// FCM only: the body.
    public static let body = "nb_body"
    /// FCM only: the sound.
    public static let sound = "nb_sound"
    /// FCM only: the badge count.
    public static let badge = "nb_badge"
    /// FCM only: the group (thread) identifier.
    public static let thread = "nb_thread"
    /// FCM only: `"1"` on a silent background push (``Message/background``): the Android SDK hands
    /// the data to the app's handler and draws nothing. (On APNs, `aps.content-available` says it.)
    public static let background = "nb_background"
}
