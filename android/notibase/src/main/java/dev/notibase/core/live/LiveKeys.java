package dev.notibase.core.live;

import java.util.Map;

/**
 * The {@code nb_live_} keys of a Live Update data message: the wire contract with the server's FCM
 * renderer for Live Activities. Every value is a string (FCM data requires it): dates and the
 * timestamp are seconds since the epoch as integer text, the content state and the attributes JSON
 * object text. The delivery keys ({@code nb_delivery}, {@code nb_message}, {@code nb_sig}) are
 * those of every Notibase message.
 */
public final class LiveKeys {
    private LiveKeys() {}

    /** {@code "1"} on every Live Update message. */
    public static final String LIVE = "nb_live";
    public static final String ACTIVITY_ID = "nb_live_activity_id";
    /** {@code start}, {@code update} or {@code end}. */
    public static final String EVENT = "nb_live_event";
    /** Seconds, from the server's clock, increasing per activity. */
    public static final String TIMESTAMP = "nb_live_timestamp";
    public static final String CONTENT_STATE = "nb_live_content_state";
    public static final String TITLE = "nb_live_title";
    public static final String BODY = "nb_live_body";
    /** {@code "0"} to {@code "1"}; optional. */
    public static final String PROGRESS = "nb_live_progress";
    /** Seconds; optional. */
    public static final String STALE_DATE = "nb_live_stale_date";
    /**
     * {@code end} only: seconds; {@code "0"} or any time passed (the server sends 2001-01-01,
     * {@code "978307200"}) removes it at once; absent leaves it dismissable.
     */
    public static final String DISMISSAL_DATE = "nb_live_dismissal_date";
    /** {@code start} only. */
    public static final String ATTRIBUTES_TYPE = "nb_live_attributes_type";
    /** {@code start} only: JSON object text. */
    public static final String ATTRIBUTES = "nb_live_attributes";

    /** Whether a data message is a Live Update (rather than a notification Notibase draws as such). */
    public static boolean isLiveUpdate(Map<String, String> data) {
        return data != null && "1".equals(data.get(LIVE));
    }
}
