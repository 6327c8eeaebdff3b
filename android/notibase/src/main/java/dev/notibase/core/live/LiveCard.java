package dev.notibase.core.live;

import dev.notibase.core.receipts.ReceiptContext;

/**
 * What one Live Update message draws: the activity's notification posted (ongoing while the
 * activity runs), or removed. Each activity has one notification, under a tag and an ID both
 * derived from its activity ID, so a later message replaces it in place, in any process.
 */
public final class LiveCard {
    /** The progress bar's maximum: progress is drawn in thousandths. */
    public static final int PROGRESS_MAX = 1000;

    public final String activityID;
    /** {@code NotificationManager.notify(tag, id, …)}'s tag: the activity ID, so no two activities share one. */
    public final String tag;
    /** {@code notify}'s ID, derived from the activity ID ({@link #notificationID}). */
    public final int notificationID;
    /** True when the notification is to be removed at once; nothing else is drawn then. */
    public final boolean remove;
    public final String title;
    public final String body;
    /** 0 to {@link #PROGRESS_MAX}, or null for no progress bar. */
    public final Integer progress;
    /** Ongoing (the user cannot swipe it away; promotable on Android 16) until the activity ends. */
    public final boolean ongoing;
    /** When an ended notification is to go (epoch milliseconds), or null to leave it until dismissed. */
    public final Long dismissAtMillis;
    /** How long from now that is ({@code setTimeoutAfter}), or null. */
    public final Long dismissAfterMillis;
    public final ReceiptContext receipt;

    private LiveCard(String activityID, boolean remove, String title, String body, Integer progress, boolean ongoing,
            Long dismissAtMillis, Long dismissAfterMillis, ReceiptContext receipt) {
        this.activityID = activityID;
        this.tag = tag(activityID);
        this.notificationID = notificationID(activityID);
        this.remove = remove;
        this.title = title;
        this.body = body;
        this.progress = progress;
        this.ongoing = ongoing;
        this.dismissAtMillis = dismissAtMillis;
        this.dismissAfterMillis = dismissAfterMillis;
        this.receipt = receipt;
    }

    /**
     * What {@code update} draws at {@code nowMillis}; {@code last} is what was last applied to its
     * activity (or null), whose text a message without any keeps (an {@code end}, or an update
     * of the progress alone).
     */
    public static LiveCard of(LiveUpdate update, LiveRecord last, long nowMillis) {
        String title = update.title;
        String body = update.body;
        if (title == null && body == null && last != null) {
            title = last.title;
            body = last.body;
        }
        Integer progress = update.progress == null ? null : (int) Math.round(update.progress * PROGRESS_MAX);
        if (update.event != LiveEvent.END) {
            return new LiveCard(update.activityID, false, title, body, progress, true, null, null, update.receipt);
        }
        if (update.dismissalDate == null) {
            return new LiveCard(update.activityID, false, title, body, progress, false, null, null, update.receipt);
        }
        long dismissAt = update.dismissalDate * 1000;
        if (dismissAt <= nowMillis) return new LiveCard(update.activityID, true, null, null, null, false, null, null, update.receipt);
        return new LiveCard(update.activityID, false, title, body, progress, false, dismissAt, dismissAt - nowMillis, update.receipt);
    }

    /** The tag of {@code activityID}'s notification. */
    public static String tag(String activityID) {
        return "notibase-live:" + activityID;
    }

    /**
     * The notification ID of {@code activityID}: {@code String.hashCode}, which Java specifies
     * (the same in every process and on every device), so nothing is stored to find it again.
     */
    public static int notificationID(String activityID) {
        return activityID.hashCode();
    }
}
