package dev.notibase.core.payload;

/**
 * The {@code nb_} keys of the FCM data message: the wire contract with the server's
 * {@code FCMRenderer} ({@code Sources/NotibaseCore/Rendering/PayloadKeys.swift}). Every value is a
 * string; {@code nb_buttons} is the button list as JSON text.
 */
public final class PayloadKeys {
    private PayloadKeys() {}

    public static final String TITLE = "nb_title";
    public static final String SUBTITLE = "nb_subtitle";
    public static final String BODY = "nb_body";
    public static final String BUTTONS = "nb_buttons";
    public static final String IMAGE = "nb_image";
    public static final String URL = "nb_url";
    public static final String SOUND = "nb_sound";
    public static final String BADGE = "nb_badge";
    public static final String THREAD = "nb_thread";
    /** {@code "1"} on a silent background push: nothing is drawn, the data goes to the app's listener. */
    public static final String BACKGROUND = "nb_background";
    public static final String MESSAGE = "nb_message";
    public static final String DELIVERY = "nb_delivery";
    /** The server's per-delivery receipt signature, posted back as a receipt's {@code signature}. */
    public static final String SIGNATURE = "nb_sig";
    /**
     * FCM's own key for {@code android.collapse_key}. FCM usually hands it to the app outside the
     * data map ({@code RemoteMessage.getCollapseKey()}), so it can also be passed separately.
     */
    public static final String COLLAPSE_KEY = "collapse_key";

    /** Whether {@code key} belongs to Notibase or FCM rather than to the message's custom data. */
    public static boolean isReserved(String key) {
        return key.startsWith("nb_") || key.equals("from") || key.equals("message_type") || key.equals(COLLAPSE_KEY)
                || key.equals("notification") || key.startsWith("google.") || key.startsWith("gcm.")
                || key.equals("google") || key.equals("gcm");
    }
}
